import { existsSync } from 'node:fs';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useLinearReadBuffer } from './linear-read-buffer.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import type { StderrTail } from './stderr-tail.js';
import type { SandboxTools } from '../../protocol/sandbox/preflight.js';

export type ConcreteTransport = 'stdio' | 'http' | 'sse';

/** The transports to try in order: `auto` (a `url` without `type`) tries Streamable HTTP, then SSE. */
export function transportPlan(config: ResolvedServerConfig): ConcreteTransport[] {
  return config.transport === 'auto' ? ['http', 'sse'] : [config.transport];
}

export async function createTransport(
  config: ResolvedServerConfig,
  kind: ConcreteTransport,
  stderr: StderrTail,
  onStderr?: (chunk: string) => void,
): Promise<Transport> {
  if (kind === 'stdio') {
    if (!config.command) throw new Error(`MCP server '${config.alias}' has no command`);
    const entry = config.builtIn ? config.args?.[0] : undefined;
    if (entry && !existsSync(entry)) throw new Error(`built-in server entry ${entry} is missing (run npm run build)`);
    const launch = await launchOf(config);
    const t = new StdioClientTransport({
      ...launch,
      // Never inherit: a child writing to our terminal corrupts the UI. Drained continuously below.
      stderr: 'pipe',
    });
    // The SDK's Protocol chains an onclose set before connect: the sandbox's files go with the process.
    if (launch.cleanup) t.onclose = () => void launch.cleanup?.().catch(() => undefined);
    // Large results (a multi-megabyte read) would otherwise cost quadratic copying in the SDK's reader.
    useLinearReadBuffer(t);
    t.stderr?.on('data', (d: Buffer) => {
      const s = d.toString('utf8');
      stderr.append(s);
      onStderr?.(s);
    });
    return t;
  }
  // Imported here, not at the top: the HTTP transports, OAuth (with web streams and web crypto) and the
  // sandbox's network bridge cost a start-up ~15 ms of CPU that a session of stdio servers never uses.
  const [
    { StreamableHTTPClientTransport },
    { SSEClientTransport },
    { StoredOAuthProvider },
    { TokenStore },
    { AnswerWatch },
    { replicaRecordingFetch },
  ] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('./oauth/provider.js'),
    import('./oauth/token-store.js'),
    import('./answer-watch.js'),
    import('./replica-id.js'),
  ]);
  const url = new URL(config.url!);
  const requestInit: RequestInit = config.headers ? { headers: config.headers } : {};
  // Stored OAuth tokens are sent and refreshed by the SDK; a needed sign-in fails the connection with
  // the command to run (host/mcp/oauth/provider.ts).
  const authProvider = config.oauth
    ? new StoredOAuthProvider(new TokenStore(config.oauth.tokenFile), { config: config.oauth, serverUrl: config.url! })
    : undefined;
  // A request whose answer can no longer come (the server died mid-call) fails when its stream ends.
  const watch = new AnswerWatch(kind, RECONNECTION.maxRetries);
  // Outermost, so every response is seen, the streams the watch wraps included.
  const replica = replicaRecordingFetch(watch.fetch);
  const transport =
    kind === 'http'
      ? new StreamableHTTPClientTransport(url, {
          requestInit,
          authProvider,
          fetch: replica.fetch,
          reconnectionOptions: RECONNECTION,
        })
      : new SSEClientTransport(url, { requestInit, authProvider, fetch: replica.fetch });
  watch.attach(transport);
  replica.bind(transport);
  return transport;
}

/** The SDK's own defaults, spelled out: the answer watch gives up on a stream when the SDK does. */
const RECONNECTION = {
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 30_000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 2,
};

/**
 * checkSandbox blocks on a bubblewrap probe; it ran on every (re)start of every sandboxed server. A
 * success is kept per needNet for the process; a failure is not, so installing bubblewrap (or socat)
 * and restarting the server is picked up.
 */
const sandboxChecked = new Map<boolean, SandboxTools>();

async function sandboxTools(needNet: boolean): Promise<SandboxTools> {
  let tools = sandboxChecked.get(needNet);
  if (!tools) {
    const { checkSandbox } = await import('../../protocol/sandbox/preflight.js');
    tools = checkSandbox({ needNet });
    sandboxChecked.set(needNet, tools);
  }
  return tools;
}

/**
 * The command line of a stdio server; a sandboxed one is wrapped (and refused, never started
 * unconfined, when the sandbox cannot be built here).
 */
async function launchOf(config: ResolvedServerConfig): Promise<{
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  cleanup?: () => Promise<unknown>;
}> {
  const plain = { command: config.command!, args: config.args ?? [], env: config.env, cwd: config.cwd };
  if (!config.sandbox) return plain;
  const tools = await sandboxTools(config.sandbox.allowNet.length > 0);
  const cwd = config.cwd ?? process.cwd();
  const { wrapCommand } = await import('../../protocol/sandbox/wrap.js');
  const w = await wrapCommand({
    tools,
    writable: config.sandbox.allowWrite,
    cwd,
    command: config.command!,
    args: config.args ?? [],
    env: config.env ?? (process.env as Record<string, string>),
    allowNet: config.sandbox.allowNet,
    extraSecrets: config.sandbox.secrets,
  });
  return { command: w.file, args: w.args, env: w.env as Record<string, string>, cwd, cleanup: w.cleanup };
}

/** The stdio child's pid when there is one (diagnostics and tests). */
export function transportPid(t: Transport): number | undefined {
  return t instanceof StdioClientTransport ? (t.pid ?? undefined) : undefined;
}
