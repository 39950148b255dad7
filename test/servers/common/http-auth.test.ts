import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import express from 'express';
import { generateKeyPair } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JwtIssuer } from '../../helpers/jwt-issuer.js';
import { postWithHost } from '../../helpers/raw-mcp.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { type HttpServerProcess, startHttpServer } from './http-server.js';

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

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The real SDK client over HTTP, sending this token with every request. */
async function connectWith(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'team-member', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: bearer(token) } }));
  return client;
}

/** The filesystem server over HTTP accepting this issuer's tokens for the scope `files`. */
async function startProtected(issuer: JwtIssuer, root: string, more: string[] = []): Promise<HttpServerProcess> {
  const args = ['--root', root, '--auth-issuer', issuer.base, '--required-scope', 'files', ...more];
  return startHttpServer(ENTRY.filesystem, args, children);
}

async function toolCallsCounted(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('mcp_tool_calls_total{'))
    .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
}

describe('OAuth resource server: JWT access tokens over HTTP', () => {
  const issuer = new JwtIssuer();
  const root = tempDir();
  writeFileSync(join(root, 'notes.txt'), 'team notes 42\n');
  beforeAll(() => issuer.start());
  afterAll(() => issuer.close());

  it('a valid token opens a session and calls a tool; the metadata names the issuer at both well-known paths', async () => {
    const srv = await startProtected(issuer, root);
    const client = await connectWith(srv.url, await issuer.sign({ aud: srv.url, scope: 'openid files' }));
    const read = await client.callTool({ name: 'read_file', arguments: { absolute_path: join(root, 'notes.txt') } });
    expect(read.isError).toBeFalsy();
    expect(JSON.stringify(read.content)).toContain('team notes 42');
    await client.close();
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await fetch(`${srv.base}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        resource: srv.url,
        authorization_servers: [issuer.base],
        bearer_methods_supported: ['header'],
        scopes_supported: ['files'],
      });
    }
  });

  it('missing, wrong-audience, expired, foreign and forged tokens get 401 naming the metadata; a missing scope 403', async () => {
    const srv = await startProtected(issuer, root);
    const metadata = `resource_metadata="${srv.base}/.well-known/oauth-protected-resource/mcp"`;
    const missing = await post(srv.url, INIT);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe(`Bearer scope="files", ${metadata}`);

    const now = Math.floor(Date.now() / 1000);
    const forger = await generateKeyPair('ES256');
    const cases: [string, Promise<string>, string][] = [
      ['wrong audience', issuer.sign({ aud: 'https://other.example/mcp', scope: 'files' }), 'audience'],
      ['expired', issuer.sign({ aud: srv.url, scope: 'files', iat: now - 7200, exp: now - 3600 }), 'expired'],
      ['another issuer', issuer.sign({ aud: srv.url, scope: 'files', iss: 'https://evil.example' }), 'issuer'],
      ['forged', issuer.sign({ aud: srv.url, scope: 'files' }, { key: forger.privateKey }), 'signature'],
      ['no subject', issuer.sign({ aud: srv.url, scope: 'files', sub: undefined }), 'sub'],
      ['not yet valid', issuer.sign({ aud: srv.url, scope: 'files', nbf: now + 3600 }), 'not valid yet'],
    ];
    for (const [name, token, why] of cases) {
      const res = await post(srv.url, INIT, bearer(await token));
      expect(res.status, name).toBe(401);
      const challenge = res.headers.get('www-authenticate')!;
      expect(challenge, name).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", resource_metadata=/);
      expect(challenge, name).toContain(metadata);
      expect(challenge, name).toContain(why);
      expect(JSON.parse(res.text).error.message, name).toMatch(/^Unauthorized: /);
    }

    const noScope = await post(srv.url, INIT, bearer(await issuer.sign({ aud: srv.url, scope: 'openid' })));
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="files", error_description="the token lacks the scope files", ${metadata}`,
    );
    expect(JSON.parse(noScope.text).error.message).toBe('Forbidden: the token lacks the scope files');
    expect(await toolCallsCounted(srv.base)).toBe(0);
  });

  it("user B's valid token on user A's session gets 404 and never reaches it; A's session lives on", async () => {
    const srv = await startProtected(issuer, root);
    const alice = await issuer.sign({ aud: srv.url, scope: 'files', sub: 'alice' });
    const bob = await issuer.sign({ aud: srv.url, scope: 'files', sub: 'bob' });
    const opened = await post(srv.url, INIT, bearer(alice));
    expect(opened.status).toBe(200);
    const sid = opened.headers.get('mcp-session-id')!;
    const onAlices = { ...bearer(bob), 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
    const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
    expect((await post(srv.url, initialized, { ...onAlices, ...bearer(alice) })).status).toBe(202);

    const args = { absolute_path: join(root, 'notes.txt') };
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: args } };
    const stolen = await post(srv.url, call, onAlices);
    expect(stolen.status).toBe(404);
    expect(stolen.text).not.toContain('team notes');
    const unknown = await post(srv.url, call, { ...onAlices, 'mcp-session-id': 'no-such-session' });
    expect(stolen.text).toBe(unknown.text);
    const ended = await fetch(srv.url, { method: 'DELETE', headers: onAlices });
    expect(ended.status).toBe(404);
    expect(await toolCallsCounted(srv.base)).toBe(0);

    // Alice's renewed token (a new one, same issuer and subject) still reaches her session.
    const renewed = await issuer.sign({ aud: srv.url, scope: 'files openid', sub: 'alice' });
    const mine = await post(srv.url, call, { ...onAlices, ...bearer(renewed) });
    expect(mine.status).toBe(200);
    expect(mine.text).toContain('team notes 42');
    expect(await toolCallsCounted(srv.base)).toBe(1);
  });

  it('the key set is fetched once for many requests, and a rotated key is picked up after the cooldown', async () => {
    const srv = await startProtected(issuer, root, ['--auth-jwks-cooldown', '1']);
    const before = issuer.jwksRequests;
    const client = await connectWith(srv.url, await issuer.sign({ aud: srv.url, scope: 'files' }));
    for (let i = 0; i < 20; i++) {
      const r = await client.callTool({ name: 'read_file', arguments: { absolute_path: join(root, 'notes.txt') } });
      expect(r.isError).toBeFalsy();
    }
    await client.close();
    expect(issuer.jwksRequests - before).toBe(1);

    await issuer.rotate();
    const rotated = await issuer.sign({ aud: srv.url, scope: 'files' });
    await waitFor(async () => (await post(srv.url, INIT, bearer(rotated))).status === 200, 'the rotated key accepted');
    expect(issuer.jwksRequests - before).toBe(2);
  });

  it('within the cooldown a token signed by an unknown key is refused without fetching the keys again', async () => {
    const srv = await startProtected(issuer, root, ['--auth-jwks-cooldown', '600']);
    const before = issuer.jwksRequests;
    expect((await post(srv.url, INIT, bearer(await issuer.sign({ aud: srv.url, scope: 'files' })))).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const forged = await issuer.sign({ aud: srv.url, scope: 'files' }, { kid: `made-up-${i}` });
      const res = await post(srv.url, INIT, bearer(forged));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('no signing key of the issuer matches the token');
    }
    expect(issuer.jwksRequests - before).toBe(1);
  });
});

describe('OAuth resource server: replicas and an unreachable issuer', () => {
  const issuer = new JwtIssuer();
  beforeAll(() => issuer.start());
  afterAll(() => issuer.close());

  it('replicas behind one public URL each check tokens for it and name its metadata when they refuse', async () => {
    const publicUrl = 'https://mcp.team.example/tools/mcp';
    const args = ['--root', tempDir(), '--auth-issuer', issuer.base, '--resource-url', publicUrl];
    const replicas = [
      await startHttpServer(ENTRY.filesystem, args, children),
      await startHttpServer(ENTRY.filesystem, args, children),
    ];
    const good = await issuer.sign({ aud: publicUrl });
    const local = await issuer.sign({ aud: replicas[0]!.url });
    for (const replica of replicas) {
      expect((await post(replica.url, INIT, bearer(good))).status).toBe(200);
      const refused = await post(replica.url, INIT, bearer(local));
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain(
        'resource_metadata="https://mcp.team.example/.well-known/oauth-protected-resource/tools/mcp"',
      );
      const metadata = await fetch(`${replica.base}/.well-known/oauth-protected-resource/tools/mcp`);
      expect((await metadata.json()).resource).toBe(publicUrl);
      // The load balancer forwards the public name as the Host: answered without --public-host; others are not.
      expect(await postWithHost(replica.port, 'mcp.team.example', INIT, bearer(good))).toBe(200);
      expect(await postWithHost(replica.port, 'mcp.team.example:8443', INIT, bearer(good))).toBe(403);
      expect(await postWithHost(replica.port, 'rebound.example', INIT, bearer(good))).toBe(403);
    }
  });

  it('an OpenID issuer with a path (a realm) is discovered from its openid-configuration', async () => {
    const app = express();
    const site = await new Promise<Server>((r) => {
      const s = app.listen(0, '127.0.0.1', () => r(s));
    });
    const realm = `http://127.0.0.1:${(site.address() as AddressInfo).port}/realms/team`;
    app.get('/realms/team/.well-known/openid-configuration', (_req, res) => {
      res.json({
        issuer: realm,
        authorization_endpoint: `${realm}/auth`,
        token_endpoint: `${realm}/token`,
        jwks_uri: `${issuer.base}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
      });
    });
    try {
      const srv = await startHttpServer(ENTRY.filesystem, ['--root', tempDir(), '--auth-issuer', realm], children);
      expect((await post(srv.url, INIT, bearer(await issuer.sign({ iss: realm, aud: srv.url })))).status).toBe(200);
      expect((await post(srv.url, INIT, bearer(await issuer.sign({ aud: srv.url })))).status).toBe(401);
      const metadata = await (await fetch(`${srv.base}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(metadata.authorization_servers).toEqual([realm]);
    } finally {
      site.closeAllConnections();
      site.close();
    }
  });

  it("unreachable signing keys are the server's fault: 503 with Retry-After, not 401", async () => {
    const gone = new JwtIssuer();
    await gone.start();
    const jwks = `${gone.base}/jwks`;
    const srv = await startHttpServer(
      ENTRY.filesystem,
      ['--root', tempDir(), '--auth-issuer', gone.base, '--auth-jwks-url', jwks],
      children,
    );
    const token = await gone.sign({ aud: srv.url });
    await gone.close();
    const res = await post(srv.url, INIT, bearer(token));
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(srv.stderr()).toContain("cannot load the issuer's signing keys");
  });
});

describe('OAuth resource-server flags', () => {
  /** Runs a server expected to refuse its flags; its exit code and stderr. */
  function refused(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [requireBuilt(ENTRY.filesystem), '--root', tempDir(), ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    return new Promise((r) => child.once('exit', (code) => r({ code, stderr })));
  }

  it('--token-env and --auth-issuer are exclusive; the OAuth flags need --auth-issuer and HTTP', async () => {
    const both = await refused(
      ['--transport', 'http', '--token-env', 'ONE_TOKEN', '--auth-issuer', 'https://id.example'],
      { ONE_TOKEN: 'x' },
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--token-env and --auth-issuer are exclusive');
    const stray = await refused(['--transport', 'http', '--resource-url', 'https://mcp.example/mcp']);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain('--resource-url needs --auth-issuer URL');
    const stdio = await refused(['--auth-issuer', 'https://id.example']);
    expect(stdio.code).toBe(2);
    expect(stdio.stderr).toContain('--auth-issuer needs --transport http');
    const public_ = await refused(['--transport', 'http', '--host', '0.0.0.0', '--auth-issuer', 'https://id.example']);
    expect(public_.code).toBe(2);
    expect(public_.stderr).toContain('needs --resource-url');
    const scheme = await refused(['--transport', 'http', '--auth-issuer', 'ftp://id.example']);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toContain('--auth-issuer must be an http(s) URL without credentials or #fragment');
    const cooldown = await refused([
      '--transport',
      'http',
      '--auth-issuer',
      'https://id.example',
      '--auth-jwks-cooldown=-1',
    ]);
    expect(cooldown.code).toBe(2);
    expect(cooldown.stderr).toContain('--auth-jwks-cooldown must be a number of seconds (0 or more), not "-1"');
  });

  it('an issuer that serves no metadata is a clear start-up error', async () => {
    const site = await startHttpServer(ENTRY.filesystem, ['--root', tempDir()], children);
    const r = await refused(['--transport', 'http', '--port', '0', '--auth-issuer', site.base]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--auth-issuer ${site.base}: it serves no OAuth or OpenID metadata`);
  });

  it('an issuer that accepts connections but never answers fails the start-up within the discovery deadline', async () => {
    const silent = createNetServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const issuer = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      const r = await refused(['--transport', 'http', '--port', '0', '--auth-issuer', issuer]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--auth-issuer ${issuer}: cannot read its metadata`);
    } finally {
      silent.close();
    }
  }, 60_000);
});
