import { waitFor } from '../../helpers/wait.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, expect } from 'vitest';
import { McpClientManager, type McpClientManagerOptions } from '../../../host/mcp/client-manager.js';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { REPO } from '../../helpers/paths.js';

/** server-everything, the MCP reference server that exercises every client feature. */
export const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export type Transport = 'stdio' | 'sse' | 'streamableHttp';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts server-everything over HTTP on 127.0.0.1 and resolves with its port once it accepts connections. */
export async function startEverythingHttp(mode: 'sse' | 'streamableHttp', children: ChildProcess[]): Promise<number> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const listening = () =>
    new Promise<boolean>((r) => {
      if (child.exitCode !== null) throw new Error(`server-everything ${mode} exited: ${stderr}`);
      const s = connect(port, '127.0.0.1', () => (s.end(), r(true)));
      s.on('error', () => r(false));
    });
  await waitFor(listening, `server-everything ${mode} listening on ${port}`);
  return port;
}

/** Managers and servers a test file starts, closed after each test / the file. */
export function everythingHarness() {
  const managers: McpClientManager[] = [];
  const children: ChildProcess[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
  });
  afterAll(() => {
    for (const c of children) c.kill('SIGTERM');
  });

  /** server-everything over HTTP on 127.0.0.1, once the port accepts connections. */
  const listen = (mode: 'sse' | 'streamableHttp') => startEverythingHttp(mode, children);

  async function config(
    transport: Transport,
    alias = 'everything',
    extra: Partial<ResolvedServerConfig> = {},
  ): Promise<ResolvedServerConfig> {
    const base = { alias, builtIn: false, trust: false, timeoutMs: 60_000, ...extra };
    if (transport === 'stdio') {
      return {
        ...base,
        transport: 'stdio',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        env: { PATH: process.env.PATH! },
      };
    }
    const port = await listen(transport);
    return transport === 'sse'
      ? { ...base, transport: 'sse', url: `http://127.0.0.1:${port}/sse` }
      : { ...base, transport: 'http', url: `http://127.0.0.1:${port}/mcp` };
  }

  /** A manager connected to the given servers (each must connect). */
  async function started(
    servers: ResolvedServerConfig[],
    opts: Partial<McpClientManagerOptions> = {},
  ): Promise<McpClientManager> {
    const m = new McpClientManager({ servers, roots: [REPO], ...opts });
    managers.push(m);
    m.start();
    await m.whenSettled();
    for (const s of m.states()) expect(s.status, `${s.alias}: ${s.error}`).toBe('connected');
    return m;
  }

  return { config, started };
}

/** All text blocks of a result, joined. */
export function allText(r: { content: { type: string; text?: string }[] }): string {
  return r.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}
