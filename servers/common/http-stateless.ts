import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import type { KitServer } from './create-server.js';
import type { CallMeter } from './http-call-meter.js';
import type { Outbox } from './http-outbox.js';
import { readJson, sendDraining, sendJsonError, sendTooLarge, TOO_LARGE } from './http-replies.js';
import type { Logger } from './logger.js';

export interface StatelessEnv {
  log: Logger;
  create: () => KitServer | Promise<KitServer>;
  meter: CallMeter;
  allowedHosts: () => string[];
  draining: () => boolean;
  /** Paces one response like a session's output (slow readers are cut). */
  outbox: (res: ServerResponse) => Outbox;
}

/**
 * `--stateless`: no session. Each POST gets a server and transport of its own, which end with its
 * response, so any replica can answer any request and a load balancer needs no stickiness. What a
 * session would carry cannot exist: the server cannot ask the client anything in the middle of a call
 * (its answer would arrive in another request, at a fresh server), so tools that ask before a side
 * effect do not ask, and their listing drops the mark that tells a client they will: the client
 * approves before calling, as it does for any server that does not ask. GET (the standalone stream) and
 * DELETE have nothing to serve: 405.
 */
export async function serveStateless(env: StatelessEnv, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    res.setHeader('Allow', 'POST');
    return sendJsonError(res, 405, -32000, 'Method not allowed: this server is stateless (POST only, no session)');
  }
  const body = await readJson(req);
  if (body === TOO_LARGE) return sendTooLarge(res);
  if (body === undefined) return sendJsonError(res, 400, -32700, 'Parse error: invalid JSON');
  // One message per request: a batch could pair an initialize with a call that then asks a question.
  if (Array.isArray(body))
    return sendJsonError(res, 400, -32600, 'Invalid request: a stateless server takes one message per request');
  if (env.draining() && isRequest(body)) return sendDraining(res);
  const server = await env.create();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableDnsRebindingProtection: true,
    allowedHosts: env.allowedHosts(),
  });
  const unwatch = env.meter.watch(transport, server.toolNames ?? new Set());
  withoutConfirmsMark(transport);
  env.outbox(res);
  res.once('close', () => {
    unwatch();
    void server.mcp.close().catch((err: Error) => env.log.debug(`http: closing a stateless server: ${err.message}`));
  });
  await server.mcp.connect(transport);
  await transport.handleRequest(req, res, body);
}

function isRequest(body: unknown): boolean {
  return !!body && typeof body === 'object' && 'id' in body && 'method' in body;
}

/** Drops the `confirms` mark from a tools/list answer on its way out. */
function withoutConfirmsMark(transport: StreamableHTTPServerTransport): void {
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage, options) => {
    const tools = 'result' in message ? (message.result as { tools?: unknown }).tools : undefined;
    if (Array.isArray(tools)) {
      for (const tool of tools as { _meta?: Record<string, unknown> }[]) {
        if (tool._meta && META.confirms in tool._meta) {
          const { [META.confirms]: _dropped, ...rest } = tool._meta;
          tool._meta = rest;
        }
      }
    }
    return send(message, options);
  };
}
