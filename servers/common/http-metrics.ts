import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { CallObserver, CallOutcome } from './http-call-meter.js';

export interface HttpMetrics extends CallObserver {
  /** The Prometheus text exposition and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

/**
 * The server's Prometheus metrics, in a registry of its own (prom-client's global one would mix in any
 * other user of the library). Labels carry tool names and outcomes only: never a path, an argument or a
 * session id.
 */
export function createHttpMetrics(server: string, sessionCount: () => number, inFlight: () => number): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ server });
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: 'mcp_sessions',
    help: 'Streamable HTTP sessions held by this replica',
    registers: [registry],
    collect() {
      this.set(sessionCount());
    },
  });
  new Gauge({
    name: 'mcp_tool_calls_in_flight',
    help: 'Tool calls started and not yet answered',
    registers: [registry],
    collect() {
      this.set(inFlight());
    },
  });
  const calls = new Counter({
    name: 'mcp_tool_calls_total',
    help: 'Tool calls answered, by tool and outcome',
    labelNames: ['tool', 'outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'mcp_tool_call_duration_seconds',
    help: 'Time from a tool call to its answer (a confirmation the user reads is included)',
    labelNames: ['tool'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  return {
    started: () => undefined,
    finished(tool: string, outcome: CallOutcome, seconds: number) {
      calls.inc({ tool, outcome });
      latency.observe({ tool }, seconds);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
