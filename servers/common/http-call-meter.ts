import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from './logger.js';

/** How a tool call ended, as metrics count it. */
export type CallOutcome = 'ok' | 'tool_error' | 'protocol_error' | 'cancelled' | 'session_closed';

export interface CallObserver {
  started(tool: string): void;
  finished(tool: string, outcome: CallOutcome, seconds: number): void;
}

/**
 * Watches the JSON-RPC messages of every HTTP session for `tools/call` requests and their answers, so the
 * process knows how many calls are in flight (a drain waits for them) and metrics see each call's tool,
 * outcome and latency. It reads the messages only where they cross the transport, so every server's tools
 * are counted the same way without touching their handlers. A tool name is recorded only if the server
 * has that tool: a client cannot grow the metrics with names of its own.
 */
export class CallMeter {
  private count = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly observer?: CallObserver) {}

  get inFlight(): number {
    return this.count;
  }

  /** Resolves once no call is in flight. */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Waits until no call is in flight or `graceMs` passed, saying on stderr which. */
  async settle(graceMs: number, log: Logger): Promise<void> {
    log.info(`draining: ${this.count} call(s) in flight, waiting up to ${graceMs / 1000} s`);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((r) => {
      timer = setTimeout(() => r(true), graceMs);
    });
    const timedOut = await Promise.race([this.idle().then(() => false), expired]);
    clearTimeout(timer);
    if (timedOut) log.warn(`draining: grace period over; closing ${this.count} unfinished call(s)`);
  }

  /** Starts watching a connected transport; the returned function ends its pending calls (session closed). */
  watch(transport: Transport, toolNames: ReadonlySet<string>): () => void {
    const pending = new Map<string | number, { tool: string; start: bigint }>();
    const finish = (id: string | number, outcome: CallOutcome) => {
      const call = pending.get(id);
      if (!call) return;
      pending.delete(id);
      this.count--;
      this.observer?.finished(call.tool, outcome, Number(process.hrtime.bigint() - call.start) / 1e9);
      if (this.count === 0) for (const wake of this.idleWaiters.splice(0)) wake();
    };
    const receive = transport.onmessage;
    transport.onmessage = (message, extra) => {
      this.onIncoming(message, toolNames, pending, finish);
      receive?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const sent = send(message, options);
      if (!('id' in message) || message.id === null || message.id === undefined || 'method' in message) return sent;
      const id = message.id;
      const outcome: CallOutcome =
        'error' in message ? 'protocol_error' : (message.result as { isError?: boolean }).isError ? 'tool_error' : 'ok';
      // Counted as finished once the answer is on its way, so a drain never closes a session under it.
      return sent.finally(() => finish(id, outcome));
    };
    return () => {
      for (const id of [...pending.keys()]) finish(id, 'session_closed');
    };
  }

  private onIncoming(
    message: JSONRPCMessage,
    toolNames: ReadonlySet<string>,
    pending: Map<string | number, { tool: string; start: bigint }>,
    finish: (id: string | number, outcome: CallOutcome) => void,
  ): void {
    if (!('method' in message)) return;
    if (message.method === 'tools/call' && 'id' in message && !pending.has(message.id)) {
      const name = (message.params as { name?: unknown } | undefined)?.name;
      const tool = typeof name === 'string' && toolNames.has(name) ? name : 'unknown';
      pending.set(message.id, { tool, start: process.hrtime.bigint() });
      this.count++;
      this.observer?.started(tool);
    } else if (message.method === 'notifications/cancelled') {
      // The SDK sends no answer for a cancelled request.
      const id = (message.params as { requestId?: string | number } | undefined)?.requestId;
      if (id !== undefined) finish(id, 'cancelled');
    }
  }
}
