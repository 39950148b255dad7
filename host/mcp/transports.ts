import { existsSync } from 'node:fs';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useLinearReadBuffer } from './linear-read-buffer.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import { StoredOAuthProvider } from './oauth/provider.js';
import { TokenStore } from './oauth/token-store.js';
import type { StderrTail } from './stderr-tail.js';

export type ConcreteTransport = 'stdio' | 'http' | 'sse';

/** The transports to try in order: `auto` (a `url` without `type`) tries Streamable HTTP, then SSE. */
export function transportPlan(config: ResolvedServerConfig): ConcreteTransport[] {
  return config.transport === 'auto' ? ['http', 'sse'] : [config.transport];
}

export function createTransport(
  config: ResolvedServerConfig,
  kind: ConcreteTransport,
  stderr: StderrTail,
  onStderr?: (chunk: string) => void,
): Transport {
  if (kind === 'stdio') {
    if (!config.command) throw new Error(`MCP server '${config.alias}' has no command`);
    const entry = config.builtIn ? config.args?.[0] : undefined;
    if (entry && !existsSync(entry)) throw new Error(`built-in server entry ${entry} is missing (run npm run build)`);
    const t = new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: config.env,
      cwd: config.cwd,
      // Never inherit: a child writing to our terminal corrupts the UI. Drained continuously below.
      stderr: 'pipe',
    });
    // Large results (a multi-megabyte read) would otherwise cost quadratic copying in the SDK's reader.
    useLinearReadBuffer(t);
    t.stderr?.on('data', (d: Buffer) => {
      const s = d.toString('utf8');
      stderr.append(s);
      onStderr?.(s);
    });
    return t;
  }
  const url = new URL(config.url!);
  const requestInit: RequestInit = config.headers ? { headers: config.headers } : {};
  // Stored OAuth tokens are sent and refreshed by the SDK; a needed sign-in fails the connection with
  // the command to run (host/mcp/oauth/provider.ts).
  const authProvider = config.oauth
    ? new StoredOAuthProvider(new TokenStore(config.oauth.tokenFile), { config: config.oauth, serverUrl: config.url! })
    : undefined;
  if (kind === 'http') return new StreamableHTTPClientTransport(url, { requestInit, authProvider });
  return new SSEClientTransport(url, { requestInit, authProvider });
}

/** The stdio child's pid when there is one (diagnostics and tests). */
export function transportPid(t: Transport): number | undefined {
  return t instanceof StdioClientTransport ? (t.pid ?? undefined) : undefined;
}
