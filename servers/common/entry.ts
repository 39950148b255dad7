// First: zod's settings (protocol/zod-config.ts) must be in place before any schema is built.
import '../../protocol/zod-config.js';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createStderrLogger, type Logger } from './logger.js';
import type { KitServer } from './create-server.js';
import { LineLimitedStdioTransport } from './stdio-transport.js';
import type { CommonFlags, FlagValues } from './flags.js';
import { AUTH_OPTIONS, AUTH_USAGE, parseAuthFlags } from './auth-flags.js';
import { defaultReplicaId, validReplicaId } from './replica.js';
import { restoreCaCerts } from '../../protocol/deferred-ca-certs.js';

export interface EntrySpec {
  name: string;
  /** One line for `--help`: what the server provides (its tools), before the usage. */
  summary?: string;
  /** Server-specific flags beside the common ones. */
  options?: ParseArgsConfig['options'];
  usage?: string;
  /**
   * Whether `--stateless` is safe: `true` when every call stands alone, else why not (printed when an
   * operator asks for it). Unset means refused.
   */
  stateless?: true | { refused: string };
  /** Builds one server; over HTTP it is called once per session (per request when stateless). */
  create: (flags: CommonFlags, values: FlagValues, log: Logger) => KitServer | Promise<KitServer>;
}

const COMMON_OPTIONS = {
  transport: { type: 'string', default: 'stdio' },
  port: { type: 'string', default: '0' },
  host: { type: 'string', default: '127.0.0.1' },
  'token-env': { type: 'string' },
  root: { type: 'string', multiple: true },
  'project-temp-dir': { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'public-host': { type: 'string', multiple: true },
  'replica-id': { type: 'string' },
  stateless: { type: 'boolean', default: false },
  'max-sessions': { type: 'string', default: '100' },
  'session-idle-timeout': { type: 'string', default: '1800' },
  'headers-timeout': { type: 'string', default: '10' },
  'request-timeout': { type: 'string', default: '30' },
  'write-stall-timeout': { type: 'string', default: '15' },
  'max-session-requests': { type: 'string', default: '8' },
  'shutdown-grace': { type: 'string', default: '30' },
  ...AUTH_OPTIONS,
  debug: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** The tiny entry every server shares: flags, transport choice, clean shutdown. */
export async function runServerMain(spec: EntrySpec, argv = process.argv.slice(2)): Promise<void> {
  // Before anything starts a process: what a server runs gets the extra CAs the host handed it under
  // another name, so that its own start did not parse them (protocol/deferred-ca-certs.ts).
  restoreCaCerts();
  let values: FlagValues;
  try {
    values = parseArgs({ args: argv, options: { ...COMMON_OPTIONS, ...spec.options }, strict: true })
      .values as FlagValues;
  } catch (err) {
    fail(spec, (err as Error).message);
  }
  if (values.help) {
    process.stderr.write(usage(spec));
    process.exit(0);
  }
  const log = createStderrLogger(spec.name, values.debug === true || !!process.env.GEMINI_MCP_DEBUG);
  const transport = values.transport as string;
  if (transport !== 'stdio' && transport !== 'http')
    fail(spec, `--transport must be stdio or http, not "${transport}"`);
  const tokenEnv = values['token-env'] as string | undefined;
  const token = tokenEnv ? process.env[tokenEnv] : undefined;
  if (tokenEnv && !token) fail(spec, `--token-env ${tokenEnv}: that environment variable is empty or unset`);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(spec, `--port must be 0-65535, not "${values.port}"`);
  const maxSessions = Number(values['max-sessions']);
  if (!Number.isInteger(maxSessions) || maxSessions < 1)
    fail(spec, `--max-sessions must be a positive integer, not "${values['max-sessions']}"`);
  const idleSeconds = Number(values['session-idle-timeout']);
  if (!Number.isFinite(idleSeconds) || idleSeconds <= 0)
    fail(spec, `--session-idle-timeout must be a positive number of seconds, not "${values['session-idle-timeout']}"`);
  const seconds = (name: string): number => {
    const n = Number(values[name]);
    if (!Number.isFinite(n) || n <= 0)
      fail(spec, `--${name} must be a positive number of seconds, not "${values[name]}"`);
    return Math.round(n * 1000);
  };
  const headersTimeoutMs = seconds('headers-timeout');
  const requestTimeoutMs = seconds('request-timeout');
  if (requestTimeoutMs < headersTimeoutMs) fail(spec, '--request-timeout must be at least --headers-timeout');
  const maxSessionRequests = Number(values['max-session-requests']);
  if (!Number.isInteger(maxSessionRequests) || maxSessionRequests < 1)
    fail(spec, `--max-session-requests must be a positive integer, not "${values['max-session-requests']}"`);
  const flags: CommonFlags = {
    transport,
    port,
    host: values.host as string,
    token,
    roots: (values.root as string[] | undefined) ?? [process.cwd()],
    projectTempDir: values['project-temp-dir'] as string | undefined,
    debug: values.debug === true,
    allowOrigins: (values['allow-origin'] as string[] | undefined) ?? [],
    ...replicaFlags(spec, values, transport),
    maxSessions,
    sessionIdleMs: Math.round(idleSeconds * 1000),
    headersTimeoutMs,
    requestTimeoutMs,
    writeStallMs: seconds('write-stall-timeout'),
    maxSessionRequests,
    shutdownGraceMs: seconds('shutdown-grace'),
    auth: parseAuthFlags(values, (message) => fail(spec, message)),
  };

  if (flags.transport === 'http') {
    // Loaded only here: the Streamable HTTP stack costs a stdio server measurable startup time.
    const { serveHttp } = await import('./http.js');
    const http = await serveHttp(flags, () => spec.create(flags, values, log), log, spec.name).catch((err) =>
      fail(spec, err.message),
    );
    // SIGTERM drains so a rolling restart loses no call; past the grace period and a margin the process exits anyway.
    onShutdown(() => http.drain(flags.shutdownGraceMs), flags.shutdownGraceMs + 5000);
    return;
  }
  const server = await spec.create(flags, values, log);
  const stdio = new LineLimitedStdioTransport();
  // Protocol faults (unparseable or oversized lines) are answered where possible; stderr says what came in.
  server.mcp.server.onerror = (err) => log.warn(`protocol: ${err.message}`);
  await server.mcp.connect(stdio);
  const stop = () => server.mcp.close();
  // The client closing our stdin is the normal end of a stdio session; one that stops reading our stdout
  // (it died, or a pipe's reader exited) ends it too, since no answer can reach it any more.
  process.stdin.on('end', () => void stop().finally(() => process.exit(0)));
  stdio.onclientgone = (err) => {
    log.warn(`the client stopped reading (stdout: ${err.message}); exiting`);
    void stop().finally(() => process.exit(0));
  };
  onShutdown(stop);
}

/** The flags for running as one of several replicas: its id, the public names it answers, stateless. */
function replicaFlags(
  spec: EntrySpec,
  values: FlagValues,
  transport: string,
): Pick<CommonFlags, 'replicaId' | 'publicHosts' | 'stateless'> {
  const replicaId = (values['replica-id'] as string | undefined) ?? defaultReplicaId();
  if (!validReplicaId(replicaId))
    fail(spec, `--replica-id must be 1-64 letters, digits, '-' or '_', not "${replicaId}"`);
  const publicHosts = (values['public-host'] as string[] | undefined) ?? [];
  for (const h of publicHosts)
    if (!/^[A-Za-z0-9.:[\]-]+$/.test(h))
      fail(spec, `--public-host takes a host name, optionally with :port, not "${h}"`);
  const stateless = values.stateless === true;
  if (stateless && transport !== 'http') fail(spec, '--stateless needs --transport http');
  if (stateless && spec.stateless !== true)
    fail(spec, `--stateless is refused: ${spec.stateless?.refused ?? 'this server keeps state in its sessions'}`);
  return { replicaId, publicHosts: publicHosts.map((h) => h.toLowerCase()), stateless };
}

function onShutdown(close: () => Promise<void>, forceAfterMs = 5000): void {
  let closing = false;
  const handler = () => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => process.exit(0), forceAfterMs);
    force.unref();
    void close()
      .catch(() => undefined)
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  process.on('SIGHUP', () => undefined); // servers that want SIGHUP register their own listener.
}

function usage(spec: EntrySpec): string {
  return (
    `${spec.summary ? `${spec.name}: ${spec.summary}\n` : ''}` +
    `Usage: ${spec.name} [--transport stdio|http] [--port N] [--host 127.0.0.1] [--token-env NAME]\n` +
    `       [--root DIR]... [--project-temp-dir DIR] [--debug]\n` +
    `       HTTP: [--allow-origin ORIGIN]... [--public-host NAME[:PORT]]... [--replica-id ID (hostname-pid)] [--stateless]\n` +
    `             [--max-sessions 100] [--session-idle-timeout SECONDS (1800)]\n` +
    `             [--headers-timeout SECONDS (10)] [--request-timeout SECONDS (30)] [--write-stall-timeout SECONDS (15)]\n` +
    `             [--max-session-requests N (8)] [--shutdown-grace SECONDS (30)]\n${AUTH_USAGE}${spec.usage ? `\n${spec.usage}` : ''}\n`
  );
}

function fail(spec: EntrySpec, message: string): never {
  process.stderr.write(`${spec.name}: ${message}\n${usage(spec)}`);
  process.exit(2);
}
