import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { openRawSession } from '../../helpers/raw-mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { connectHttp, startHttpServer } from './http-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('drain on SIGTERM', () => {
  it('a write waiting on its confirmation gets its real answer; readiness and new sessions get 503; exit 0', async () => {
    const root = tempDir();
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root, '--shutdown-grace', '20'], children);
    let asked!: () => void;
    const confirmationAsked = new Promise<void>((r) => (asked = r));
    let answer!: (r: ElicitResult) => void;
    const client = await connectHttp(srv.url, () => {
      asked();
      return new Promise<ElicitResult>((r) => (answer = r));
    });
    const target = join(root, 'drained.txt');
    const call = client.callTool({ name: 'write_file', arguments: { file_path: target, content: 'kept\n' } });
    await confirmationAsked;

    const t0 = Date.now();
    srv.child.kill('SIGTERM');
    await waitFor(async () => (await fetch(`${srv.base}/readyz`)).status === 503, 'readiness to turn 503');
    const fresh = await fetch(srv.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INIT),
    });
    expect(fresh.status).toBe(503);
    expect(await fresh.text()).toMatch(/shutting down/);
    expect((await fetch(`${srv.base}/healthz`)).status).toBe(200);

    // The user answers after the signal: the call must still complete and write the file.
    answer({ action: 'accept', content: { decision: 'proceed_once' } });
    const result = await call;
    expect(result.isError, JSON.stringify(result)).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('kept\n');
    expect(await srv.exited).toBe(0);
    console.log(`drain: confirmation answered after SIGTERM, call succeeded, exit 0 after ${Date.now() - t0} ms`);
    expect(srv.stderr()).toMatch(/draining: 1 call\(s\) in flight/);
  });

  it('draining, a session takes no new call (404: the client starts a session elsewhere) but still takes the answer its call waits for', async () => {
    const root = tempDir();
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root, '--shutdown-grace', '20'], children);
    let asked!: () => void;
    const confirmationAsked = new Promise<void>((r) => (asked = r));
    let answer!: (r: ElicitResult) => void;
    const client = await connectHttp(srv.url, () => {
      asked();
      return new Promise<ElicitResult>((r) => (answer = r));
    });
    const target = join(root, 'kept.txt');
    const call = client.callTool({ name: 'write_file', arguments: { file_path: target, content: 'kept\n' } });
    await confirmationAsked;
    srv.child.kill('SIGTERM');
    await waitFor(async () => (await fetch(`${srv.base}/readyz`)).status === 503, 'readiness to turn 503');

    const late = await client
      .callTool({ name: 'write_file', arguments: { file_path: join(root, 'late.txt'), content: 'late\n' } })
      .then(
        () => 'answered',
        (err: Error & { code?: number }) => `${err.code}: ${err.message}`,
      );
    expect(late).toMatch(/^404: .*Session not found/);
    expect(existsSync(join(root, 'late.txt'))).toBe(false);

    answer({ action: 'accept', content: { decision: 'proceed_once' } });
    expect((await call).isError).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('kept\n');
    expect(await srv.exited).toBe(0);
  });

  it('a call still unfinished when the grace period ends is closed and the process exits 0', async () => {
    const root = tempDir();
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', root, '--shutdown-grace', '0.5'], children);
    let asked!: () => void;
    const confirmationAsked = new Promise<void>((r) => (asked = r));
    const client = await connectHttp(srv.url, () => {
      asked();
      return new Promise<ElicitResult>(() => undefined);
    });
    const call = client
      .callTool({ name: 'write_file', arguments: { file_path: join(root, 'never.txt'), content: 'x' } })
      .catch((err: Error) => err);
    await confirmationAsked;
    srv.child.kill('SIGTERM');
    expect(await srv.exited).toBe(0);
    expect(srv.stderr()).toMatch(/grace period over; closing 1 unfinished call/);
    void call;
  });

  it('a request already on its way when the drain ends gets a whole answer or a refused connection, never a cut one', async () => {
    // A load balancer may resend a request whose connection was refused, never one that was cut after
    // it was sent (it may have run). Twenty clients each send a request on a fresh connection, in a
    // loop, until the server says their session is gone (404) or refuses the connection, while the
    // server drains and exits: every request sent must get a whole HTTP answer.
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', tempDir()], children);
    const s = await openRawSession(srv.url);
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' });
    const request = [
      'POST /mcp HTTP/1.1',
      `Host: 127.0.0.1:${srv.port}`,
      ...Object.entries(s.headers).map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${Buffer.byteLength(ping)}`,
      '',
      ping,
    ].join('\r\n');
    const tally = { answered: 0, gone: 0, refused: 0, cut: [] as string[] };
    const client = async () => {
      for (;;) {
        const r = await sendOnce(srv.port, request);
        if (r.status === '200') tally.answered++;
        else if (r.status === '404') return void tally.gone++;
        else if (r.error === 'ECONNREFUSED') return void tally.refused++;
        else return void tally.cut.push(r.error ?? `HTTP ${r.status}`);
      }
    };
    const clients = Array.from({ length: 20 }, client);
    await waitFor(() => tally.answered >= 100, 'the clients to be under way');
    srv.child.kill('SIGTERM');
    await Promise.all(clients);
    console.log(
      `drain under load: ${tally.answered} answered, then ${tally.gone} told the session is gone, ${tally.refused} refused, ${tally.cut.length} cut`,
    );
    expect(tally.cut).toEqual([]);
    expect(tally.gone + tally.refused).toBe(20);
    expect(await srv.exited).toBe(0);
  });
});

/** One request on a fresh connection: the answer's status, or how the connection ended without one. */
function sendOnce(port: number, request: string): Promise<{ status?: string; error?: string }> {
  return new Promise((resolve) => {
    let data = '';
    const socket = createConnection(port, '127.0.0.1', () => socket.write(request));
    socket.on('data', (d: Buffer) => {
      data += d.toString();
      // The SSE answer keeps the connection open (the SDK sets keep-alive): closed here once whole.
      if (wholeAnswer(data)) {
        resolve({ status: data.slice(9, 12) });
        socket.destroy();
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    socket.on('close', () => resolve({ error: `closed after ${data.length} bytes` }));
  });
}

/** A status line, then a body that ends as its chunking or Content-Length says. */
function wholeAnswer(data: string): boolean {
  const end = data.indexOf('\r\n\r\n');
  if (!/^HTTP\/1\.1 \d{3}/.test(data) || end < 0) return false;
  const head = data.slice(0, end);
  if (/transfer-encoding: chunked/i.test(head)) return data.endsWith('\r\n0\r\n\r\n');
  const length = /content-length: (\d+)/i.exec(head);
  return Buffer.byteLength(data.slice(end + 4)) >= Number(length?.[1] ?? 0);
}
