import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { KitServer } from './create-server.js';
import type { CommonFlags } from './flags.js';
import { type Caller, createHttpAuth } from './http-auth.js';
import { CallMeter } from './http-call-meter.js';
import { DrainGate } from './http-drain-gate.js';
import { ListenerClose } from './http-listener-close.js';
import { SessionEventStore } from './http-event-store.js';
import { serveStateless, type StatelessEnv } from './http-stateless.js';
import { createHttpMetrics } from './http-metrics.js';
import { Outbox } from './http-outbox.js';
import { answerProbe, PROBE_PATHS } from './http-probes.js';
import { SessionTable } from './http-sessions.js';
import type { Logger } from './logger.js';
import { MAX_MESSAGE_BYTES } from './message-limit.js';
import { mintSessionId, REPLICA_HEADER } from './replica.js';
import { readJson, sendDraining, sendJsonError, sendTooLarge, TOO_LARGE } from './http-replies.js';
import { letYoungGenerationGrow } from './young-generation.js';

/**
 * Streamable HTTP on `/mcp`, one server per session (per request with `--stateless`). A bearer token
 * guards every request when configured, a non-loopback bind requires one, and Host headers are checked
 * against the bind address (and the names given with `--public-host`) so a web page cannot reach a local
 * server through DNS rebinding. Session ids start with the replica id, which `/mcp` answers name
 * (`Mcp-Replica-Id`); SSE events carry ids, kept per session so a cut stream resumes with
 * `Last-Event-ID`. A browser's Origin must be
 * the server's own or one allowed with `--allow-origin`; clients that send none (not browsers) pass.
 * An unknown or closed session id gets 404, so a client knows to initialize again. `/healthz`, `/readyz`
 * and `/metrics` answer without a token. `drain` stops taking sessions and lets the calls in flight finish.
 */
export async function serveHttp(
  flags: CommonFlags,
  create: () => KitServer | Promise<KitServer>,
  log: Logger,
  serverName = 'mcp',
): Promise<HttpService> {
  const auth = await createHttpAuth(flags, log);
  const sessions = new SessionTable({ maxSessions: flags.maxSessions, idleMs: flags.sessionIdleMs }, log);
  let allowedHosts: string[] = [];
  let ownOrigins = new Set<string>();
  let draining = false;
  const metrics = createHttpMetrics(
    serverName,
    () => sessions.size,
    () => meter.inFlight,
  );
  const [meter, gate] = [new CallMeter(metrics), new DrainGate()];
  const stateless = statelessEnv(flags, log, create, meter, () => ({ allowedHosts, draining }));

  const http = createServer(slowClientLimits(flags), (req, res) => {
    void handle(req, res).catch((err) => {
      log.error(`http: ${(err as Error).message}`);
      if (!res.headersSent) sendJsonError(res, 500, -32603, 'Internal server error');
    });
  });

  const listener = new ListenerClose(http);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const probe = PROBE_PATHS.has(url.pathname) && req.headers.origin === undefined;
    if (probe) return answerProbe(url.pathname, req, res, { ready: () => !draining, metrics });
    if (auth.serveMetadata(url.pathname, req, res)) return;
    if (url.pathname !== '/mcp') return sendJsonError(res, 404, -32000, 'Not found: the endpoint is /mcp');
    if (refusedOrigin(req, res, ownOrigins, flags, log)) return;
    const caller = await auth.authenticate(req, res);
    if (!caller) return;
    // Only to a client that passed the checks: the default id names the host and the process.
    res.setHeader(REPLICA_HEADER, flags.replicaId);
    if (req.method === 'POST') gate.enter(res);
    if (flags.stateless) return gate.shut ? sendDraining(res) : serveStateless(stateless, req, res);
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') return inSession(sid, caller, req, res);
    if (req.method !== 'POST')
      return sendJsonError(res, 400, -32000, 'Bad request: no session id (send initialize first)');
    const body = await readJson(req);
    if (body === TOO_LARGE) return sendTooLarge(res);
    if (body === undefined) return sendJsonError(res, 400, -32700, 'Parse error: invalid JSON');
    if (!isInitializeRequest(body))
      return sendJsonError(res, 400, -32000, 'Bad request: no session id (send initialize first)');
    if (draining) return sendDraining(res);
    return startSession({ flags, log, create, sessions, meter, allowedHosts }, caller, req, res, body);
  }

  async function inSession(sid: string, caller: Caller, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const session = gate.shut ? undefined : sessions.get(sid, caller.owner);
    if (!session) return sendSessionGone(res);
    sessions.track(session, res);
    if (req.method !== 'POST') return session.transport.handleRequest(req, res);
    const body = await readJson(req);
    if (body === TOO_LARGE) return sendTooLarge(res);
    if (body === undefined) return sendJsonError(res, 400, -32700, 'Parse error: invalid JSON');
    // Draining, a session takes no new work, only what its calls wait for (answers, notifications).
    if (gate.shut || (draining && carriesWork(body))) return sendSessionGone(res);
    if (carriesWork(body) && !(await session.outbox.admit(res))) return;
    return session.transport.handleRequest(req, res, body);
  }

  const { port, mcpUrl } = await listen(http, flags);
  ({ allowedHosts, ownOrigins } = hostsAnswered(flags, port));
  auth.listening(mcpUrl);
  letYoungGenerationGrow();
  // Tests and launchers read this line to learn the port.
  log.info(`listening on ${mcpUrl}`);
  // Draining, the clients were told to go elsewhere: the listener waits for their traffic to stop.
  const close = async (quietMs = 0) => {
    draining = true;
    await sessions.closeAll();
    await listener.close({ quietMs, settleMs: 100, maxMs: 3000 });
  };
  return {
    port,
    close: () => close(),
    drain: async (graceMs: number) => {
      draining = true;
      const deadline = Date.now() + graceMs;
      await meter.settle(graceMs, log);
      await gate.close(deadline);
      await close(250);
    },
  };
}

interface SessionEnv {
  flags: CommonFlags;
  log: Logger;
  create: () => KitServer | Promise<KitServer>;
  sessions: SessionTable;
  meter: CallMeter;
  allowedHosts: string[];
}

/** A new session for an initialize request: its server, transport and outbox, its calls watched by the meter. */
async function startSession(
  env: SessionEnv,
  caller: Caller,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<void> {
  const { flags, log, sessions } = env;
  if (!sessions.makeRoom()) {
    return sendJsonError(
      res,
      503,
      -32000,
      `Service unavailable: all ${flags.maxSessions} sessions are busy (raise --max-sessions)`,
    );
  }
  const server = await env.create();
  const outbox = sessionOutbox(flags, log, res);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => mintSessionId(flags.replicaId),
    enableDnsRebindingProtection: true,
    allowedHosts: env.allowedHosts,
    // SSE events get ids and are kept (bounded) so a client whose stream was cut resumes with Last-Event-ID.
    eventStore: new SessionEventStore(),
    onsessioninitialized: (id) =>
      sessions.add(id, { transport, server, outbox, open: 0, lastUsed: Date.now(), owner: caller.owner }),
  });
  let unwatch: () => void = () => {};
  transport.onclose = () => {
    unwatch();
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await server.mcp.connect(transport);
  unwatch = env.meter.watch(transport, server.toolNames ?? new Set());
  await transport.handleRequest(req, res, body);
}

export interface HttpService {
  port: number;
  /** Closes every session at once. */
  close: () => Promise<void>;
  /** Refuses new sessions (readiness 503), waits up to `graceMs` for the calls in flight, then closes. */
  drain: (graceMs: number) => Promise<void>;
}

function sendSessionGone(res: ServerResponse): void {
  sendJsonError(res, 404, -32001, 'Session not found: it expired or was closed; initialize a new session');
}

/** Listens on the flags' address; the line it logs is how tests and launchers learn the port. */
async function listen(http: Server, flags: CommonFlags): Promise<{ port: number; mcpUrl: string }> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(flags.port, flags.host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  return { port, mcpUrl: `http://${flags.host.includes(':') ? `[${flags.host}]` : flags.host}:${port}/mcp` };
}

/** A browser's request from an origin that is neither the server's own nor allowed: answered 403. */
function refusedOrigin(
  req: IncomingMessage,
  res: ServerResponse,
  ownOrigins: Set<string>,
  flags: CommonFlags,
  log: Logger,
): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || originAllowed(origin, ownOrigins, flags.allowOrigins)) return false;
  log.info(`http: refused a request from origin ${origin}`);
  sendJsonError(
    res,
    403,
    -32000,
    `Forbidden: origin ${origin} is not allowed (the server accepts it with --allow-origin ${origin})`,
  );
  return true;
}

/**
 * The Host headers a replica answers (its bind address and localhost, with and without the port, and
 * the public names: the operator's `--public-host` names and the host of `--resource-url`, the public URL
 * clients reach through the load balancer), and the browser origins that are its own. A public name's
 * origin is not implied: it is allowed with `--allow-origin`.
 */
function hostsAnswered(flags: CommonFlags, port: number): { allowedHosts: string[]; ownOrigins: Set<string> } {
  const own = [flags.host, 'localhost', '127.0.0.1', '[::1]'].flatMap((h) => [`${h}:${port}`, h]);
  const ownOrigins = new Set(own.filter((h) => h.endsWith(`:${port}`)).map((h) => `http://${h}`));
  // The URL's host omits a default port, as clients' Host headers do.
  const resourceHost = flags.auth?.resourceUrl ? [new URL(flags.auth.resourceUrl).host] : [];
  return { allowedHosts: [...own, ...flags.publicHosts, ...resourceHost], ownOrigins };
}

/**
 * A client dripping its headers or body holds a socket and a parser: cut it within seconds, not Node's
 * 60 s / 300 s, and look every second rather than every 30.
 */
function slowClientLimits(flags: CommonFlags): ServerOptions {
  return {
    headersTimeout: flags.headersTimeoutMs,
    requestTimeout: flags.requestTimeoutMs,
    connectionsCheckingInterval: 1000,
  };
}

/** What `--stateless` requests need: live views of the allowed hosts and of draining. */
function statelessEnv(
  flags: CommonFlags,
  log: Logger,
  create: () => KitServer | Promise<KitServer>,
  meter: CallMeter,
  now: () => { allowedHosts: string[]; draining: boolean },
): StatelessEnv {
  return {
    log,
    create,
    meter,
    allowedHosts: () => now().allowedHosts,
    draining: () => now().draining,
    outbox: (res) => sessionOutbox(flags, log, res),
  };
}

/**
 * A new session's outbox, pacing its first response: at most one message unsent and
 * `--max-session-requests` answers in the making.
 */
function sessionOutbox(flags: CommonFlags, log: Logger, first: ServerResponse): Outbox {
  const limits = {
    maxBufferedBytes: MAX_MESSAGE_BYTES,
    maxInFlight: flags.maxSessionRequests,
    stallMs: flags.writeStallMs,
  };
  const onStall = (unsent: number) =>
    log.info(`http: cut a response its reader took nothing of for ${flags.writeStallMs} ms (${unsent} bytes unsent)`);
  const outbox = new Outbox(limits, onStall);
  outbox.pace(first);
  return outbox;
}

/** `null` (sandboxed frames, file: pages) is refused like any foreign origin unless listed; `*` allows all. */
function originAllowed(origin: string, own: Set<string>, allowed: string[]): boolean {
  if (allowed.includes('*') || allowed.includes(origin)) return true;
  return own.has(origin.toLowerCase());
}

/**
 * Whether a JSON-RPC body (one message or a batch) holds a request other than ping: work with output, which
 * waits for the session's outbox. Answers and notifications always pass: a call may be waiting for them.
 */
function carriesWork(body: unknown): boolean {
  const isWork = (m: unknown) =>
    !!m && typeof m === 'object' && 'id' in m && 'method' in m && (m as { method: unknown }).method !== 'ping';
  return Array.isArray(body) ? body.some(isWork) : isWork(body);
}
