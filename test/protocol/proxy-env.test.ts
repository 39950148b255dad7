import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../helpers/paths.js';
import { startLoggingProxy, type LoggingProxy } from '../helpers/logging-proxy.js';
import { collect, runHost, scriptedEndpoints, spawnHost, workspace, type Workspace } from '../helpers/run-host.js';
import { reply, type ScriptEntry } from '../helpers/scripted-gemini.mjs';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';
import { OAuthMcpFixture } from '../host/mcp/oauth-fixture.js';
import { startSite, type TestSite } from '../servers/web/site.js';

/** The web server's answer after its fallback fetch (its one generateContent). */
const webAnswer = (text: string): ScriptEntry =>
  ({
    method: 'generateContent',
    response: { candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }] },
  }) as ScriptEntry;

/** Every proxy variable cleared, so the runner's own environment cannot leak into a case. */
const NO_PROXY_ENV = {
  HTTP_PROXY: undefined,
  HTTPS_PROXY: undefined,
  NO_PROXY: undefined,
  http_proxy: undefined,
  https_proxy: undefined,
  no_proxy: undefined,
};

let site: TestSite;
let proxy: LoggingProxy;
let remote: { port: number; child: ChildProcess };
let root: string;

/** Our filesystem server over Streamable HTTP, as a remote MCP server on 127.0.0.1. */
async function serveRemote(dir: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [requireBuilt(ENTRY.filesystem), '--transport', 'http', '--port', '0', '--root', dir],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  return { port, child };
}

beforeAll(async () => {
  root = tempDir('gmc-proxy-remote-');
  writeFileSync(join(root, 'remote-file.txt'), 'x');
  [site, proxy, remote] = await Promise.all([startSite(), startLoggingProxy(), serveRemote(root)]);
});
afterAll(async () => {
  remote.child.kill('SIGTERM');
  await Promise.all([site.close(), proxy.close()]);
});

/** The web server (private hosts allowed, for the local site) and the remote server; no other built-in. */
function proxiedWorkspace(epUrl: string): Workspace {
  const ws = workspace();
  ws.settings({
    mcp: { excluded: ['filesystem', 'shell', 'memory'] },
    mcpServers: {
      web: {
        command: process.execPath,
        args: [ENTRY.web, '--allow-private-hosts'],
        env: { GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: epUrl },
        trust: true,
      },
      remote: { httpUrl: `http://127.0.0.1:${remote.port}/mcp`, trust: true },
    },
  });
  return ws;
}

const hostOf = (url: string) => new URL(url).host;

describe('HTTP_PROXY / NO_PROXY: every request a run makes goes through the proxy', () => {
  const endpoint = scriptedEndpoints();

  it('the model request, web_fetch (the page and its model call) and a remote MCP call all pass the proxy', async () => {
    const ep = await endpoint(
      reply.calls(
        { name: 'web__web_fetch', args: { prompt: `summarise ${site.url}/page.html` } },
        { name: 'remote__list_directory', args: { path: root } },
      ),
      webAnswer('the page says welcome'),
      reply.text('all done'),
    );
    const ws = proxiedWorkspace(ep.url);
    const r = await runHost(['-p', 'go', '--yolo'], {
      ws,
      url: ep.url,
      env: { ...NO_PROXY_ENV, HTTP_PROXY: proxy.url },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('all done');
    expect(r.stderr).not.toContain('experimental');
    // What the tools answered reached the model: the page through the web server, the remote listing.
    const sent = JSON.stringify(ep.requestsOf('streamGenerateContent').at(-1)!.body);
    expect(sent).toContain('the page says welcome');
    expect(sent).toContain('remote-file.txt');
    expect(JSON.stringify(ep.requestsOf('generateContent')[0].body)).toMatch(/welcome page/i);
    expect(site.hits).toContain('/page.html');
    expect(proxy.reached(hostOf(ep.url)), JSON.stringify(proxy.hits)).toBe(true);
    expect(proxy.reached(hostOf(site.url)), JSON.stringify(proxy.hits)).toBe(true);
    expect(proxy.reached(`127.0.0.1:${remote.port}`), JSON.stringify(proxy.hits)).toBe(true);
  });

  it('NO_PROXY sends the hosts it names directly: the model goes direct, the remote server still through the proxy', async () => {
    const ep = await endpoint(
      reply.calls({ name: 'remote__list_directory', args: { path: root } }),
      reply.text('listed'),
    );
    proxy.hits.length = 0;
    const ws = proxiedWorkspace(ep.url);
    const r = await runHost(['-p', 'go', '--yolo'], {
      ws,
      url: ep.url,
      env: { ...NO_PROXY_ENV, HTTP_PROXY: proxy.url, NO_PROXY: `localhost,${hostOf(ep.url)}` },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('listed');
    expect(JSON.stringify(ep.requestsOf('streamGenerateContent').at(-1)!.body)).toContain('remote-file.txt');
    expect(proxy.reached(hostOf(ep.url))).toBe(false);
    expect(proxy.reached(`127.0.0.1:${remote.port}`), JSON.stringify(proxy.hits)).toBe(true);
  });

  it('a proxy variable that is not a URL stops the run with a clear error before any request', async () => {
    const ep = await endpoint(reply.text('never'));
    const ws = workspace();
    const r = await runHost(['-p', 'go'], { ws, url: ep.url, env: { ...NO_PROXY_ENV, HTTPS_PROXY: '127.0.0.1:3128' } });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain('HTTPS_PROXY is not a URL ("127.0.0.1:3128"): write it as http://host:port');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);
  });
});

describe('OAuth through HTTPS_PROXY / HTTP_PROXY', () => {
  const fixture = new OAuthMcpFixture();
  const endpoint = scriptedEndpoints();
  beforeAll(() => fixture.start());
  afterAll(() => fixture.close());

  it('mcp auth (discovery, registration, code exchange) and a token refresh in a session go through the proxy', async () => {
    const ws = workspace();
    ws.settings({
      mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] },
      mcpServers: { remote: { httpUrl: `${fixture.base}/mcp`, trust: true } },
    });
    const env = { ...NO_PROXY_ENV, HTTP_PROXY: proxy.url };
    proxy.hits.length = 0;
    // The test is the browser: it opens the printed URL and follows the redirect home, directly.
    const auth = collect(spawnHost(['mcp', 'auth', 'remote'], { ws, env }));
    await waitFor(() => /https?:\/\/\S+authorize\S*/.test(auth.stdout()), 'the authorization URL');
    const approved = await fetch(/(https?:\/\/\S+authorize\S*)/.exec(auth.stdout())![1]!, { redirect: 'manual' });
    expect((await fetch(approved.headers.get('location')!)).status).toBe(200);
    const signedIn = await auth.done;
    expect(signedIn.code, signedIn.stderr).toBe(0);
    expect(signedIn.stdout).toContain('Signed in to "remote".');
    expect(fixture.seen).toMatchObject({ registrations: 1, codeExchanges: 1 });
    expect(proxy.reached(hostOf(fixture.base)), JSON.stringify(proxy.hits)).toBe(true);

    proxy.hits.length = 0;
    fixture.expireAccessTokens();
    const ep = await endpoint(reply.calls({ name: 'remote__whoami' }), reply.text('It is you.'));
    const r = await runHost(['-p', 'who am I?'], { ws, url: ep.url, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(ep.requestsOf('streamGenerateContent').at(-1)!.body)).toMatch(/hello client/);
    expect(fixture.seen.refreshes).toBe(1);
    expect(proxy.reached(hostOf(fixture.base)), JSON.stringify(proxy.hits)).toBe(true);
    expect(proxy.reached(hostOf(ep.url))).toBe(true);
  });
});

describe('start-up cost: undici loads only when a proxy is named', () => {
  const endpoint = scriptedEndpoints();

  /** Runs the host with a preload that records, per process, every undici module it loaded. */
  async function undiciLoads(env: Record<string, string | undefined>): Promise<string[]> {
    const dir = tempDir('gmc-loads-');
    const hook = join(dir, 'hook.cjs');
    writeFileSync(
      hook,
      `const M = require('node:module'); const fs = require('node:fs'); const seen = [];
       const load = M._load; M._load = function (r, ...a) { if (/undici/.test(r)) seen.push(r); return load.call(this, r, ...a); };
       process.on('exit', () => fs.writeFileSync(${JSON.stringify(dir)} + '/' + process.pid + '.json',
         JSON.stringify(seen.concat(process.moduleLoadList.filter((m) => /undici/.test(m))))));`,
    );
    const ep = await endpoint(reply.text('hello there'));
    const r = await runHost(['-p', 'hi'], {
      ws: workspace(),
      url: ep.url,
      env: { ...NO_PROXY_ENV, ...env, NODE_OPTIONS: `--require ${hook}` },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('hello there');
    const logs = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(logs.length).toBeGreaterThan(0);
    return logs.flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as string[]);
  }

  it('without a proxy variable no process of the run loads undici; with one, the host does', async () => {
    expect(await undiciLoads({})).toEqual([]);
    expect(await undiciLoads({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' })).toContain('undici');
  });
});
