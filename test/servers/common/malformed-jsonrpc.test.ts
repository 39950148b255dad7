import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

/** Speaks raw newline-delimited JSON-RPC to a built server, as a broken client would. */
function rawServer(entry: string, root: string) {
  const child = spawn(process.execPath, [requireBuilt(entry), '--root', root], { stdio: ['pipe', 'pipe', 'pipe'] });
  const replies: Record<string, unknown>[] = [];
  const waiters: Array<() => void> = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    replies.push(JSON.parse(line));
    for (const w of waiters.splice(0)) w();
  });
  const next = async (pred: (r: Record<string, unknown>) => boolean) => {
    for (;;) {
      const hit = replies.find(pred);
      if (hit) return hit;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { child, send: (text: string) => child.stdin.write(`${text}\n`), next };
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe.each([
  ['filesystem', ENTRY.filesystem],
  ['shell', ENTRY.shell],
  ['memory', ENTRY.memory],
  ['web', ENTRY.web],
])('%s server with malformed JSON-RPC', (_name, entry) => {
  it('answers protocol faults and keeps serving', async () => {
    const s = rawServer(entry, tempDir('gmc-raw-'));
    try {
      s.send('this is not json');
      s.send('{"jsonrpc":"2.0","id":');
      s.send(JSON.stringify(INIT));
      expect(await s.next((r) => r.id === 1)).toHaveProperty('result.serverInfo');
      s.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      s.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'no/such/method' }));
      expect(await s.next((r) => r.id === 2)).toHaveProperty('error.code', -32601);
      s.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { arguments: 'not an object' } }));
      expect(await s.next((r) => r.id === 3)).toHaveProperty('error');
      s.send(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 4,
          method: 'tools/call',
          params: { name: 'no_such_tool', arguments: {} },
        }),
      );
      const unknown = await s.next((r) => r.id === 4);
      expect(JSON.stringify(unknown)).toMatch(/no_such_tool/);
      s.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
      expect(
        ((await s.next((r) => r.id === 5)) as { result: { tools: unknown[] } }).result.tools.length,
      ).toBeGreaterThan(0);
      expect(s.child.exitCode).toBeNull();
    } finally {
      s.child.kill();
    }
  });

  it.each(['stdin close', 'SIGTERM'])('exits with code 0 on %s', async (how) => {
    const s = rawServer(entry, tempDir('gmc-raw-'));
    s.send(JSON.stringify(INIT));
    await s.next((r) => r.id === 1);
    const exited = new Promise<number | null>((r) => s.child.once('exit', (code) => r(code)));
    if (how === 'SIGTERM') s.child.kill('SIGTERM');
    else s.child.stdin.end();
    expect(await exited).toBe(0);
  });

  // A client that dies (or a pipe's reader that exits) closes the server's stdout while its stdin may stay open.
  it('ends quietly with code 0 when its client stops reading', async () => {
    const s = rawServer(entry, tempDir('gmc-raw-'));
    let stderr = '';
    s.child.stderr.on('data', (d) => (stderr += d));
    s.send(JSON.stringify(INIT));
    await s.next((r) => r.id === 1);
    const exited = new Promise<[number | null, string | null]>((r) => s.child.once('exit', (c, sig) => r([c, sig])));
    s.child.stdout.destroy();
    // Only the failed write of this answer can tell the server.
    s.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(await exited).toEqual([0, null]);
    expect(stderr).not.toMatch(/Unhandled 'error' event|at .*\(node:/);
    expect(stderr).toMatch(/client stopped reading/);
  });
});

describe('a JSON-RPC line over the size limit (stdio)', () => {
  const big = 'x'.repeat(17 * 1024 * 1024);

  it('gets an Invalid Request error for its id, and the server keeps serving', async () => {
    const s = rawServer(ENTRY.filesystem, tempDir('gmc-raw-'));
    try {
      s.send(JSON.stringify(INIT));
      await s.next((r) => r.id === 1);
      s.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      const call = {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'write_file', arguments: { file_path: 'x', content: big } },
      };
      s.send(JSON.stringify(call));
      const refused = await s.next((r) => r.id === 9);
      expect(refused).toMatchObject({ error: { code: -32600 } });
      expect(JSON.stringify(refused)).toMatch(/exceeds the \d+-byte limit/);
      // A line whose id cannot be read is dropped without an answer; the next request is served.
      s.send(`[${JSON.stringify(big)}]`);
      s.send(JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' }));
      expect(await s.next((r) => r.id === 10)).toHaveProperty('result');
      expect(s.child.exitCode).toBeNull();
    } finally {
      s.child.kill();
    }
  });
});

describe('requestIdOf', () => {
  it('reads only a top-level id that precedes params', async () => {
    const { requestIdOf } = await import('../../../servers/common/stdio-transport.js');
    expect(requestIdOf('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":')).toBe(7);
    expect(requestIdOf('{"id":"a\\"b","method":"x"')).toBe('a"b');
    expect(requestIdOf('{"jsonrpc":"2.0","method":"tools/call","params":{"id":3')).toBeUndefined();
    expect(requestIdOf('[{"id":1}')).toBeUndefined();
    expect(requestIdOf('{"meta":{"id":4},"id":5')).toBeUndefined();
  });
});
