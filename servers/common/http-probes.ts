import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpMetrics } from './http-metrics.js';

export interface ProbeState {
  /** False once the server drains: it answers its sessions but takes no new ones. */
  ready: () => boolean;
  metrics: HttpMetrics;
}

/** The paths a load balancer or Prometheus asks without a token; they reveal no path, argument or session. */
export const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * `/healthz`: the process is alive and serving HTTP. `/readyz`: it accepts new sessions (503 while it
 * drains, so a load balancer sends new clients elsewhere). `/metrics`: Prometheus' text format.
 */
export async function answerProbe(path: string, req: IncomingMessage, res: ServerResponse, state: ProbeState) {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' });
    res.end('Method not allowed\n');
    return;
  }
  if (path === '/healthz') return sendText(res, 200, 'ok\n');
  if (path === '/readyz') return state.ready() ? sendText(res, 200, 'ready\n') : sendText(res, 503, 'draining\n');
  const { contentType, body } = await state.metrics.render();
  res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}
