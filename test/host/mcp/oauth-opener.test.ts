import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { collect, ONLY, spawnHost, workspace } from '../../helpers/run-host.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { OAuthMcpFixture } from './oauth-fixture.js';

/**
 * `gemini-mcp mcp auth` against authorization servers on loopback. A hostile server's metadata names an
 * authorization endpoint the system opener must never get (file:, a custom scheme, plain http across the
 * network); the opener here is a real `xdg-open` on PATH that records what it was given. The callback
 * listener binds loopback whatever `oauth.redirectUri` names.
 */

/** A real `xdg-open` stand-in: writes its arguments to a file. DISPLAY set and CI unset make the host use it. */
function fakeOpener() {
  const bin = tempDir('opener-');
  const log = join(bin, 'opened.txt');
  const script = join(bin, 'xdg-open');
  writeFileSync(script, `#!/bin/sh\nprintf '%s\\n' "$@" >> '${log}'\n`);
  chmodSync(script, 0o755);
  const env = { PATH: `${bin}:${process.env.PATH}`, DISPLAY: ':99', WAYLAND_DISPLAY: undefined, CI: undefined };
  return {
    env,
    opened: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
    /** Whether a started opener is still running (it writes its log before it ends). */
    running: () => execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' }).includes(script),
  };
}

/**
 * An authorization server whose metadata is the attacker's: discovery and dynamic registration work, and
 * `authorization_endpoint` is whatever the test says.
 */
async function hostileServer(authorizationEndpoint: () => string): Promise<{ base: string; server: Server }> {
  const server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', base);
    if (url.pathname.startsWith('/.well-known/oauth-authorization-server')) {
      return json(200, {
        issuer: base,
        authorization_endpoint: authorizationEndpoint(),
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => json(201, { ...JSON.parse(body), client_id: 'evil-client' }));
      return;
    }
    json(404, { error: 'not_found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const running: { kill: () => void }[] = [];
afterEach(() => {
  for (const c of running.splice(0)) c.kill();
});

describe('mcp auth: what the system opener may be given', () => {
  let endpoint = '';
  let hostile: Awaited<ReturnType<typeof hostileServer>>;
  beforeAll(async () => {
    hostile = await hostileServer(() => endpoint);
  });
  afterAll(() => new Promise<void>((r) => hostile.server.close(() => r())));

  const cases = [
    'file:///etc/passwd',
    'x-evil-app://run?cmd=calc',
    'http://evil.example.com/authorize',
    'http://10.1.2.3/authorize',
    'ftp://127.0.0.1/authorize',
  ];
  for (const hostileEndpoint of cases) {
    it(`${hostileEndpoint} is shown with a warning and never opened`, async () => {
      endpoint = hostileEndpoint;
      const ws = workspace();
      ws.settings({ ...ONLY(), mcpServers: { evil: { httpUrl: `${hostile.base}/mcp` } } });
      const opener = fakeOpener();
      const child = spawnHost(['mcp', 'auth', 'evil'], { ws, env: opener.env });
      running.push({ kill: () => child.kill('SIGKILL') });
      const run = collect(child);
      const shown = `${new URL(hostileEndpoint).protocol}//`;
      await waitFor(() => run.stdout().includes(shown), 'the authorization URL as text', 30_000);
      expect(run.stdout()).toMatch(/Warning: .*not opened/);
      // An opener the host started exists from then on; once the host has ended, and no opener runs, any
      // opener that ran has written its log.
      child.kill('SIGTERM');
      await run.done;
      await waitFor(() => !opener.running(), 'no opener running', 10_000);
      expect(opener.opened()).toBe('');
    });
  }
});

describe('mcp auth against the OAuth fixture (http to loopback)', () => {
  const fixture = new OAuthMcpFixture();
  beforeAll(() => fixture.start());
  afterAll(() => fixture.close());

  it('an http://127.0.0.1 authorization URL does go to the opener', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY(), mcpServers: { remote: { httpUrl: `${fixture.base}/mcp` } } });
    const opener = fakeOpener();
    const child = spawnHost(['mcp', 'auth', 'remote'], { ws, env: opener.env });
    running.push({ kill: () => child.kill('SIGKILL') });
    await waitFor(() => opener.opened().includes('/authorize?'), 'the opener to be started', 30_000);
    expect(opener.opened()).toContain(`${fixture.base}/authorize?`);
  });

  it('redirectUri on 0.0.0.0: the callback listener binds 127.0.0.1 only, and the sign-in completes', async () => {
    const port = await freePort();
    const ws = workspace();
    ws.settings({
      ...ONLY(),
      mcpServers: {
        remote: { httpUrl: `${fixture.base}/mcp`, oauth: { redirectUri: `http://0.0.0.0:${port}/oauth/callback` } },
      },
    });
    const run = collect(spawnHost(['mcp', 'auth', 'remote'], { ws, env: { CI: '1' } }));
    await waitFor(() => /https?:\/\/\S+authorize\S*/.test(run.stdout()), 'the authorization URL', 30_000);
    expect(listeningAddresses(port)).toEqual(['127.0.0.1']);
    expect(run.stdout()).toMatch(/Warning: oauth\.redirectUri names 0\.0\.0\.0/);
    // The test is the browser; on this machine 0.0.0.0 reaches the loopback listener.
    const authorizeUrl = /(https?:\/\/\S+authorize\S*)/.exec(run.stdout())![1]!;
    const approved = await fetch(authorizeUrl, { redirect: 'manual' });
    const back = new URL(approved.headers.get('location')!);
    back.hostname = '127.0.0.1';
    expect((await fetch(back)).status).toBe(200);
    const r = await run.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Signed in to "remote".');
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The local addresses sockets listen on for this port, read from /proc/net/tcp{,6}. */
function listeningAddresses(port: number): string[] {
  const out: string[] = [];
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 4 || cols[3] !== '0A') continue; // 0A: LISTEN
      const [addr, p] = cols[1]!.split(':');
      if (p !== hexPort) continue;
      out.push(decodeAddress(addr!));
    }
  }
  return out;
}

function decodeAddress(hex: string): string {
  if (hex.length === 8) {
    const n = Buffer.from(hex, 'hex');
    return [n[3], n[2], n[1], n[0]].join('.');
  }
  if (/^0+$/.test(hex)) return '::';
  if (hex === '00000000000000000000000001000000') return '::1';
  return hex;
}
