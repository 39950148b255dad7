import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { openRawSession, postRequest, resumeStream, SseReader } from '../../helpers/raw-mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { connectHttp, startHttpServer } from './http-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** An initialize with a chosen Host header (fetch will not send one of our choosing). */
function initializeAs(port: number, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.once('error', reject);
    req.end(INIT);
  });
}

describe('replica ids', () => {
  it('every session id starts with --replica-id and every response names the replica', async () => {
    const srv = await startHttpServer(ENTRY.filesystem, ['--root', tempDir(), '--replica-id', 'r7'], children);
    const a = await openRawSession(srv.url);
    const b = await openRawSession(srv.url);
    expect(a.sessionId).toMatch(/^r7\.[0-9a-f-]{36}$/);
    expect(b.sessionId).toMatch(/^r7\./);
    expect(b.sessionId).not.toBe(a.sessionId);
    expect(a.replicaId).toBe('r7');
    // Not to a probe, nor to a client the checks refused: the default id names the host and the pid.
    expect((await fetch(`${srv.base}/readyz`)).headers.get('mcp-replica-id')).toBeNull();
    const foreign = await fetch(srv.url, { method: 'POST', headers: { origin: 'https://evil.example' }, body: '{}' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('mcp-replica-id')).toBeNull();
    // The SDK client works unchanged with such ids.
    const client = await connectHttp(srv.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });

  it('defaults to hostname-pid, and a bad --replica-id is refused at start', async () => {
    const srv = await startHttpServer(ENTRY.memory, [], children);
    const s = await openRawSession(srv.url);
    const expected = `${hostname()
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .slice(0, 40)}-${srv.child.pid}`;
    expect(s.replicaId).toBe(expected);
    expect(s.sessionId.startsWith(`${expected}.`)).toBe(true);
    await expect(startHttpServer(ENTRY.memory, ['--replica-id', 'a.b'], children)).rejects.toThrow(
      /--replica-id must be 1-64 letters, digits/,
    );
  });
});

describe('--public-host', () => {
  it('a public name is refused by default and answered once named; other names stay refused', async () => {
    const plain = await startHttpServer(ENTRY.memory, [], children);
    const refused = await initializeAs(plain.port, 'mcp.example.test');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatch(/Invalid Host header/);

    const named = await startHttpServer(
      ENTRY.memory,
      ['--public-host', 'mcp.example.test', '--public-host', 'lb.example.test:8443'],
      children,
    );
    expect((await initializeAs(named.port, 'mcp.example.test')).status).toBe(200);
    expect((await initializeAs(named.port, 'lb.example.test:8443')).status).toBe(200);
    expect((await initializeAs(named.port, 'lb.example.test:9999')).status).toBe(403);
    expect((await initializeAs(named.port, 'evil.example.test')).status).toBe(403);
    expect((await initializeAs(named.port, `127.0.0.1:${named.port}`)).status).toBe(200);
  });

  it("the web server's own --allow-host (private hosts it may fetch) does not widen the Host check", async () => {
    const web = await startHttpServer(ENTRY.web, ['--allow-host', 'intranet.example.test'], children);
    expect((await initializeAs(web.port, 'intranet.example.test')).status).toBe(403);
  });
});

describe('resumable streams', () => {
  it('a call whose stream is cut resumes with Last-Event-ID: every message once, none lost', async () => {
    const srv = await startHttpServer(ENTRY.shell, ['--root', tempDir()], children);
    const s = await openRawSession(srv.url);
    const lines = 12;
    const res = await postRequest(s, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'run_shell_command',
        arguments: {
          command: `for i in ${Array.from({ length: lines }, (_, i) => i + 1).join(' ')}; do echo line$i; sleep 0.15; done`,
        },
        _meta: { progressToken: 'p' },
      },
    });
    expect(res.status).toBe(200);
    const first = new SseReader(res);
    const seen: { id?: string; message: { method?: string; id?: number; params?: { progress?: number } } }[] = [];
    let last: string | undefined;
    // Read until two progress notifications arrived, then drop the connection.
    while (seen.filter((e) => e.message.method === 'notifications/progress').length < 2) {
      const e = await first.next();
      if (!e) throw new Error('stream ended before the cut');
      last = e.id ?? last;
      if (e.data) seen.push({ id: e.id, message: JSON.parse(e.data) });
    }
    await first.cancel();
    const beforeCut = seen.length;
    expect(last).toBeDefined();

    const resumed = await resumeStream(s, last!);
    expect(resumed.status).toBe(200);
    const second = new SseReader(resumed);
    for (let e = await second.next(); e; e = await second.next()) {
      if (e.data) seen.push({ id: e.id, message: JSON.parse(e.data) });
      if (e.data && JSON.parse(e.data).id === 7) break;
    }
    await second.cancel();

    // An id this session never minted cannot be resumed from: refused, not answered with a gap.
    const bogus = await resumeStream(s, `${last!.slice(0, last!.lastIndexOf('_'))}_999999`);
    expect(bogus.status).toBe(500);
    expect(await bogus.text()).toMatch(/Error replaying events/);

    const ids = seen.map((e) => e.id);
    expect(ids.every((id) => id !== undefined)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const progress = seen
      .filter((e) => e.message.method === 'notifications/progress')
      .map((e) => e.message.params!.progress);
    expect(progress).toEqual(progress.map((_, i) => i + 1));
    const results = seen.filter((e) => e.message.id === 7);
    expect(results).toHaveLength(1);
    const text = JSON.stringify(results[0].message);
    for (let i = 1; i <= lines; i++) expect(text).toContain(`line${i}`);
    console.log(
      `resume: ${beforeCut} message(s) before the cut, ${seen.length - beforeCut} after it, ${progress.length} progress in order, 1 result, 0 repeated`,
    );
  });
});
