import { createServer, type Server, type ServerResponse } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createModelFetch } from '../../../host/core/model-fetch.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A real HTTP server on 127.0.0.1; `handle` answers each request; counts the connections it saw. */
async function serve(
  handle: (body: string, res: ServerResponse) => void,
): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => handle(body, res));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, connections: () => connections };
}

const doFetch = createModelFetch();

describe('model fetch (node:http instead of undici)', () => {
  it('streams the body as it comes and keeps the connection alive between requests', async () => {
    const { url, connections } = await serve((body, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-echo': body });
      res.write('data: 1\n\n');
      setTimeout(() => res.end('data: 2\n\n'), 100);
    });
    const res = await doFetch(url, { method: 'POST', body: '{"a":1}', headers: { 'x-goog-api-key': 'k' } });
    expect(res.ok).toBe(true);
    expect(res.headers.get('X-Echo')).toBe('{"a":1}');
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).toString()).toBe('data: 1\n\n');
    const second = await reader.read();
    expect(Buffer.from(second.value!).toString()).toBe('data: 2\n\n');
    expect((await reader.read()).done).toBe(true);
    expect(await (await doFetch(url, { method: 'POST', body: 'again' })).text()).toContain('data: 2');
    expect(connections()).toBe(1);
  });

  it('an error status keeps its JSON body and headers for the SDK to read', async () => {
    const { url } = await serve((_b, res) => {
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end('{"error":{"code":429,"message":"slow down"}}');
    });
    const res = await doFetch(url, { method: 'POST', body: '{}' });
    expect([res.ok, res.status]).toEqual([false, 429]);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ error: { code: 429, message: 'slow down' } });
  });

  it('a refused connection fails as fetch does: "fetch failed", the network error as cause', async () => {
    const err = await doFetch('http://127.0.0.1:1/v1', { method: 'POST', body: '{}' }).catch((e) => e);
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toBe('fetch failed');
    expect(err.cause.code).toBe('ECONNREFUSED');
  });

  it('an abort mid-stream fails the next read with the abort reason; a body cut short is "terminated"', async () => {
    const { url } = await serve((_b, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      // Never ends on its own: the client aborts, or the socket is cut below.
    });
    const ctl = new AbortController();
    const res = await doFetch(url, { method: 'POST', body: '{}', signal: ctl.signal });
    const reader = res.body!.getReader();
    await reader.read();
    ctl.abort();
    const err = await reader.read().catch((e) => e);
    expect(err.name).toBe('AbortError');

    const cut = await doFetch(url, { method: 'POST', body: '{}' });
    const r2 = cut.body!.getReader();
    await r2.read();
    server!.closeAllConnections();
    const err2 = await r2.read().catch((e) => e);
    expect(err2).toBeInstanceOf(TypeError);
    expect(err2.message).toBe('terminated');
  });
});

describe('the built host', () => {
  const endpoint = scriptedEndpoints();

  it('answers a headless prompt without loading Node fetch (undici)', async () => {
    const ep = await endpoint(reply.text('Hello there.'));
    const ws = workspace();
    ws.settings(ONLY());
    const out = join(tempDir(), 'modules.txt');
    const hook = join(tempDir(), 'modules-at-exit.cjs');
    writeFileSync(
      hook,
      `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, process.moduleLoadList.join('\\n')));`,
    );
    const r = await runHost(['-p', 'Hi'], { ws, url: ep.url, env: { NODE_OPTIONS: `--require ${hook}` } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Hello there.');
    const modules = readFileSync(out, 'utf8');
    expect(modules).toContain('NativeModule http');
    expect(modules).not.toContain('undici');
  });
});
