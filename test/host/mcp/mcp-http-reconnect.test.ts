import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClientManager } from '../../../host/mcp/client-manager.js';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { textOf } from '../../helpers/mcp.js';

const children: ChildProcess[] = [];
const managers: McpClientManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
});

/** A real filesystem server over Streamable HTTP; `port` 0 picks one, a number reuses it. */
async function serve(
  root: string,
  port: number,
  extra: string[] = [],
): Promise<{ port: number; child: ChildProcess; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [requireBuilt(ENTRY.filesystem), '--transport', 'http', '--port', String(port), '--root', root, ...extra],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  children.push(child);
  let stderr = '';
  const bound = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  return { port: bound, child, stderr: () => stderr };
}

function remote(port: number): ResolvedServerConfig {
  // Neither built in nor trusted: a read-only hint alone would not allow a replay.
  return {
    alias: 'remote',
    builtIn: false,
    trust: false,
    transport: 'http',
    url: `http://127.0.0.1:${port}/mcp`,
    timeoutMs: 60_000,
  };
}

describe('Streamable HTTP: the host after the server lost its session', () => {
  it('a server restarted on the same port: the next call re-initialises and runs', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'x');
    const first = await serve(root, 0);
    const m = new McpClientManager({ servers: [remote(first.port)], roots: [root], restartBackoffMs: [200, 200, 200] });
    managers.push(m);
    await m.whenSettled();
    expect(m.state('remote')!.status).toBe('connected');
    expect(textOf(await m.callTool('remote', 'list_directory', { path: root }))).toContain('a.txt');

    first.child.kill('SIGTERM');
    await new Promise((r) => first.child.once('exit', r));
    await serve(root, first.port);
    for (let i = 0; i < 3; i++) {
      expect(textOf(await m.callTool('remote', 'list_directory', { path: root }))).toContain('a.txt');
    }
    expect(m.state('remote')!.status).toBe('connected');
  });

  it('the first call of a session already sees the client roots (asked for within the call, not on a stream not yet open)', async () => {
    const root = tempDir();
    const sub = join(root, 'sub');
    mkdirSync(sub);
    writeFileSync(join(sub, 'in-sub.txt'), 'x');
    const server = await serve(root, 0);
    const m = new McpClientManager({ servers: [remote(server.port)], roots: [sub] });
    managers.push(m);
    await m.whenSettled();
    // The client's roots narrow --root (they never widen it); before, the request for them got lost and --root stayed.
    expect(textOf(await m.callTool('remote', 'list_directory', { path: root }))).toMatch(/not in workspace/i);
    expect(textOf(await m.callTool('remote', 'list_directory', { path: sub }))).toContain('in-sub.txt');
  });
});
