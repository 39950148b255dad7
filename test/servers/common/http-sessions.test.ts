import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
});

/** The filesystem server over Streamable HTTP; resolves the port it printed on stderr. */
async function startHttp(
  args: string[] = [],
): Promise<{ port: number; child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(
    process.execPath,
    [requireBuilt(ENTRY.filesystem), '--transport', 'http', '--port', '0', '--root', tempDir(), ...args],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
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
  return { port, child, url: `http://127.0.0.1:${port}/mcp`, stderr: () => stderr };
}

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const PING = { jsonrpc: '2.0', id: 2, method: 'ping' };

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function open(url: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await post(url, INIT, headers);
  expect(res.status).toBe(200);
  await res.text();
  return res.headers.get('mcp-session-id')!;
}

async function ping(url: string, sid: string): Promise<number> {
  const res = await post(url, PING, { 'mcp-session-id': sid });
  await res.text();
  return res.status;
}

describe('Streamable HTTP session rules', () => {
  it('an unknown or deleted session id gets 404; a request without one gets 400', async () => {
    const { url } = await startHttp();
    expect(await ping(url, 'no-such-session')).toBe(404);
    const sid = await open(url);
    expect(await ping(url, sid)).toBe(200);
    const del = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sid } });
    expect(del.status).toBe(200);
    const after = await post(url, PING, { 'mcp-session-id': sid });
    expect(after.status).toBe(404);
    expect(((await after.json()) as { error: { message: string } }).error.message).toMatch(/initialize a new session/);
    const none = await post(url, PING);
    expect(none.status).toBe(400);
    await none.text();
  });

  it('refuses foreign and null origins; its own origin and no origin pass', async () => {
    const { url, port } = await startHttp();
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${port + 1}`]) {
      const res = await post(url, INIT, { origin });
      expect(res.status, origin).toBe(403);
      expect(await res.text()).toContain('--allow-origin');
    }
    await open(url, { origin: `http://127.0.0.1:${port}` });
    await open(url, { origin: `http://localhost:${port}` });
    await open(url);
  });

  it('--allow-origin admits the listed origins, null included', async () => {
    const { url } = await startHttp(['--allow-origin', 'https://app.example', '--allow-origin', 'null']);
    await open(url, { origin: 'https://app.example' });
    await open(url, { origin: 'null' });
    const res = await post(url, INIT, { origin: 'https://other.example' });
    expect(res.status).toBe(403);
    await res.text();
  });

  it('holds at most --max-sessions: 300 never-closed sessions leave only the 20 most recent', async () => {
    const { url, child } = await startHttp(['--max-sessions', '20']);
    const ids: string[] = [];
    for (let i = 0; i < 300; i++) ids.push(await open(url));
    const statuses = [];
    for (const sid of ids) statuses.push(await ping(url, sid));
    expect(statuses.slice(-20).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(0, 280).every((s) => s === 404)).toBe(true);
    expect(child.exitCode).toBeNull();
  });

  it('expires idle sessions (--session-idle-timeout) but not one with an open stream', async () => {
    const { url, stderr } = await startHttp(['--session-idle-timeout', '1', '--debug']);
    const busy = await open(url);
    const stream = new AbortController();
    const get = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': busy },
      signal: stream.signal,
    });
    expect(get.status).toBe(200);
    const idle = await open(url);
    // Pinging would keep it alive: wait for the server to say it closed the session.
    await vi.waitFor(() => expect(stderr()).toContain(`session ${idle} idle`), { timeout: 20_000, interval: 50 });
    expect(await ping(url, idle)).toBe(404);
    expect(stderr()).not.toContain(`session ${busy} idle`);
    expect(await ping(url, busy)).toBe(200);
    stream.abort();
    await vi.waitFor(() => expect(stderr()).toContain(`session ${busy} idle`), { timeout: 20_000, interval: 50 });
    // A new session works after the old ones expired.
    expect(await ping(url, await open(url))).toBe(200);
  });

  it('a body over the size limit gets 413 and the server keeps serving', async () => {
    const { url } = await startHttp();
    const sid = await open(url);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'ping',
      params: { pad: 'x'.repeat(17 * 1024 * 1024) },
    });
    const res = await post(url, huge, { 'mcp-session-id': sid });
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/too large/);
    expect(await ping(url, sid)).toBe(200);
  });
});
