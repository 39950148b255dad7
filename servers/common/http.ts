import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { KitServer } from './create-server.js';
import type { CommonFlags } from './flags.js';
import type { Logger } from './logger.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/**
 * Streamable HTTP on `/mcp`, one server per session. A bearer token guards every request when
 * configured, a non-loopback bind requires one, and Host headers are checked against the bind
 * address so a web page cannot reach a local server through DNS rebinding.
 */
export async function serveHttp(
  flags: CommonFlags,
  create: () => KitServer | Promise<KitServer>,
  log: Logger,
): Promise<{ port: number; close: () => Promise<void> }> {
  if (!isLoopbackHost(flags.host) && !flags.token) {
    throw new Error(`refusing to listen on non-loopback host ${flags.host} without a token (use --token-env NAME)`);
  }
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: KitServer }>();
  let allowedHosts: string[] = [];

  const http = createServer((req, res) => {
    void handle(req, res).catch((err) => {
      log.error(`http: ${(err as Error).message}`);
      if (!res.headersSent) sendJsonError(res, 500, -32603, 'Internal server error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/mcp') return sendJsonError(res, 404, -32000, 'Not found: the endpoint is /mcp');
    if (flags.token && !tokenMatches(req.headers.authorization, flags.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendJsonError(res, 401, -32001, 'Unauthorized: missing or wrong bearer token');
    }
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (existing) return existing.transport.handleRequest(req, res);
    if (req.method !== 'POST') return sendJsonError(res, 400, -32000, 'Bad request: no valid session id');
    const body = await readJson(req);
    if (body === undefined) return sendJsonError(res, 400, -32700, 'Parse error: invalid JSON');
    if (!isInitializeRequest(body)) return sendJsonError(res, 400, -32000, 'Bad request: no valid session id');
    const server = await create();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableDnsRebindingProtection: true,
      allowedHosts,
      onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(flags.port, flags.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  allowedHosts = [flags.host, 'localhost', '127.0.0.1', '[::1]'].flatMap((h) => [`${h}:${port}`, h]);
  // Tests and launchers read this line to learn the port.
  log.info(`listening on http://${flags.host.includes(':') ? `[${flags.host}]` : flags.host}:${port}/mcp`);

  return {
    port,
    close: async () => {
      await Promise.allSettled([...sessions.values()].map((s) => s.server.mcp.close()));
      await new Promise<void>((r) => http.close(() => r()));
    },
  };
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1]);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function sendJsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
