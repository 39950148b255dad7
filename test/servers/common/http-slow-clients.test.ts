import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../../helpers/mcp.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Clients that are slow on purpose, against the real filesystem server over Streamable HTTP: headers and
 * bodies dripped a byte at a time are cut within seconds, and clients that ask for large answers and never
 * read them neither grow the server's memory without bound nor hold it: their answers are cut.
 */

const TOKEN = 'slow-client-token';
const children: ChildProcess[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
});

async function startHttp(
  root: string,
  args: string[] = [],
): Promise<{ port: number; child: ChildProcess; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [requireBuilt(ENTRY.filesystem), '--transport', 'http', '--port', '0', '--root', root, '--token-env', 'T', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, T: TOKEN } },
  );
  children.push(child);
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  return { port, child, stderr: () => stderr };
}

/** Reads what the socket holds until it ends or `ms` pass; the tail is enough to tell a whole answer. */
function drain(sock: Socket, ms: number): Promise<{ ended: boolean; text: string }> {
  return new Promise((resolve) => {
    let tail = '';
    const done = (ended: boolean) => resolve({ ended, text: tail });
    const timer = setTimeout(() => done(false), ms);
    sock.on('data', (d: Buffer) => (tail = (tail + d.toString('latin1')).slice(-4096)));
    sock.once('end', () => (clearTimeout(timer), done(true)));
    sock.once('close', () => (clearTimeout(timer), done(true)));
    sock.resume();
  });
}

/** A raw socket; resolves with the ms after `t0` at which the server closed it (or undefined by `within`). */
function rawSocket(port: number): {
  sock: Socket;
  closed: (t0: number, within: number) => Promise<number | undefined>;
} {
  const sock = connect(port, '127.0.0.1');
  sock.on('error', () => undefined);
  sockets.push(sock);
  const closedAt = new Promise<number>((r) => sock.on('close', () => r(Date.now())));
  return {
    sock,
    // The close event, or undefined once `within` ms from t0 have passed without it.
    closed: async (t0, within) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<undefined>((r) => {
        timer = setTimeout(r, Math.max(0, t0 + within - Date.now()), undefined);
      });
      const at = await Promise.race([closedAt, late]);
      clearTimeout(timer);
      return at === undefined ? undefined : at - t0;
    },
  };
}

/** Writes `text` one byte every `everyMs` until the socket closes. */
function drip(sock: Socket, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (sock.destroyed || i >= text.length) return clearInterval(timer);
    sock.write(text[i++]!);
  }, everyMs);
  sock.once('close', () => clearInterval(timer));
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const JSON_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  authorization: `Bearer ${TOKEN}`,
};

async function openSession(port: number): Promise<string> {
  const url = `http://127.0.0.1:${port}/mcp`;
  const init = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'slow', version: '1' } },
    }),
  });
  await init.text();
  const sid = init.headers.get('mcp-session-id')!;
  const note = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'mcp-session-id': sid },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await note.text();
  return sid;
}

describe('slow clients over Streamable HTTP', () => {
  it('answers written piece by piece arrive whole: surrogate pairs and multi-byte text across piece bounds', async () => {
    const root = tempDir('slow-');
    // Odd ASCII prefixes shift the multi-byte characters across the 64 KB piece boundaries.
    const line = (i: number) => `${'a'.repeat(i % 7)}${'😀é中'.repeat(300)}`;
    const text = Array.from({ length: 400 }, (_, i) => line(i)).join('\n');
    writeFileSync(join(root, 'wide.txt'), text);
    const server = await startHttp(root);
    const client = new Client({ name: 'pieces', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${server.port}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const r = (await client.callTool({
      name: 'read_file',
      arguments: { absolute_path: join(root, 'wide.txt') },
    })) as CallToolResult;
    await client.close();
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toContain(text);
  });

  it('dripped headers and bodies are cut within seconds (set by flags, and by default)', async () => {
    const root = tempDir('slow-');
    const fast = await startHttp(root, ['--headers-timeout', '2', '--request-timeout', '4']);
    const byDefault = await startHttp(root);
    const t0 = Date.now();
    const headers = rawSocket(fast.port);
    drip(headers.sock, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Pad: 1\r\n'.repeat(200)}`, 300);
    const body = rawSocket(fast.port);
    const payload = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }).padEnd(2000, ' ');
    body.sock.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${payload.length}\r\n\r\n`,
    );
    drip(body.sock, payload, 200);
    const defaults = rawSocket(byDefault.port);
    drip(defaults.sock, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${'X-Pad: 1\r\n'.repeat(200)}`, 300);

    expect(await headers.closed(t0, 5000)).toBeDefined();
    expect(await body.closed(t0, 7000)).toBeDefined();
    // Default: 10 s for headers, checked every second (Node's own: 60 s, checked every 30 s).
    expect(await defaults.closed(t0, 14_000)).toBeDefined();
    // Normal requests still work on both.
    for (const { port } of [fast, byDefault]) expect((await openSession(port)).length).toBeGreaterThan(0);
  }, 30_000);

  it('clients that never read large answers: memory stays bounded and their answers are cut', async () => {
    const root = tempDir('slow-');
    // About 7 MB of text: more than the kernel's socket buffers take for one reader.
    writeFileSync(join(root, 'big.txt'), `${'z'.repeat(1999)}\n`.repeat(3500));
    const server = await startHttp(root, ['--write-stall-timeout', '3']);
    const pid = server.child.pid!;
    const sid = await openSession(server.port);
    const before = rssMb(pid);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'read_file', arguments: { absolute_path: join(root, 'big.txt'), limit: 3500 } },
    });
    const readers = Array.from({ length: 30 }, () => {
      const r = rawSocket(server.port);
      r.sock.pause(); // never reads
      r.sock.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nAuthorization: Bearer ${TOKEN}\r\n` +
          `Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
          `mcp-session-id: ${sid}\r\nmcp-protocol-version: 2025-06-18\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      return r;
    });
    // The server's memory is sampled at each look until it cuts the first reader that took nothing.
    let peak = before;
    await waitFor(
      () => {
        peak = Math.max(peak, rssMb(pid));
        return /cut a response its reader took nothing of for 3000 ms/.test(server.stderr());
      },
      'the cut',
      8000,
      100,
    );
    // 30 answers of 7 MB made at once took over 500 MB; a session makes at most 8 at a time (about 180 MB).
    expect(peak - before).toBeLessThan(250);
    // A reader that takes nothing for 3 s loses its answer: the server says so and closes the connection,
    // and that reader, when it finally reads, finds the answer cut short.
    const received = await Promise.all(readers.map((r) => drain(r.sock, 3000)));
    const cut = received.filter((r) => r.ended && !r.text.includes('"id":2}'));
    expect(cut.length).toBeGreaterThan(0);
    for (const r of readers) r.sock.destroy();
    // The session still serves a reader that reads.
    const res = await fetch(`http://127.0.0.1:${server.port}/mcp`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
      body: body.replace('"id":2', '"id":3'),
    });
    const text = await res.text();
    expect(text.length).toBeGreaterThan(6_000_000);
    expect(server.stderr()).not.toMatch(/MaxListenersExceeded|Error:/);
  }, 30_000);
});
