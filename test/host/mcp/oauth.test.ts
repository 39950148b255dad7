import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, ONLY, runHost, scriptedEndpoints, spawnHost, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { waitFor } from '../../helpers/wait.js';
import { OAuthMcpFixture } from './oauth-fixture.js';

/** `gemini-mcp mcp auth NAME`, with the test as the browser: open the printed URL, follow its redirect home. */
async function signIn(ws: ReturnType<typeof workspace>, name: string) {
  const run = collect(spawnHost(['mcp', 'auth', name], { ws }));
  await waitFor(() => /https?:\/\/\S+authorize\S*/.test(run.stdout()), 'the authorization URL', 30_000);
  const authorizeUrl = /(https?:\/\/\S+authorize\S*)/.exec(run.stdout())![1]!;
  const approved = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  const back = approved.headers.get('location')!;
  expect(back).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/callback\?code=/);
  expect((await fetch(back)).status).toBe(200);
  return run.done;
}

describe('OAuth 2.1 for remote MCP servers', () => {
  const fixture = new OAuthMcpFixture();
  const endpoint = scriptedEndpoints();
  const ws = workspace();
  const tokenFile = () => join(ws.home, '.gemini', 'mcp-oauth-tokens.json');

  beforeAll(async () => {
    await fixture.start();
    ws.settings({
      ...ONLY(),
      mcpServers: {
        remote: { httpUrl: `${fixture.base}/mcp`, trust: true },
        legacy: { url: `${fixture.base}/sse`, type: 'sse', trust: true },
      },
    });
  });
  afterAll(() => fixture.close());

  it('before signing in, the server says what to run; no browser opens in a session', async () => {
    const r = await runHost(['mcp', 'list'], { ws });
    expect(r.stdout + r.stderr).toContain('needs authentication: run "gemini-mcp mcp auth remote" to sign in');
  });

  it('mcp auth: discovery from WWW-Authenticate, dynamic registration, PKCE, loopback redirect, 0600 token file', async () => {
    const r = await signIn(ws, 'remote');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Signed in to "remote".');
    expect(fixture.seen.registrations).toBe(1);
    expect(fixture.seen.codeExchanges).toBe(1);
    const params = fixture.seen.authorizeParams.at(-1)!;
    expect(params.codeChallenge).toMatch(/^[\w-]{43}$/);
    expect(params.resource?.href).toBe(`${fixture.base}/mcp`);
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(tokenFile(), 'utf8'));
    expect(stored[`remote|${fixture.base}/mcp`].tokens.access_token).toBeTruthy();
  });

  it('a session uses the stored token: the model calls the remote tool', async () => {
    const ep = await endpoint(reply.calls({ id: 'w', name: 'remote__whoami' }), reply.text('It is you.'));
    const r = await runHost(['-p', 'who am I?'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(ep.requests[1]!.body.contents)).toMatch(/hello client [\w-]+/);
  });

  it('an expired access token is refreshed and saved, and the call goes through', async () => {
    const before = JSON.parse(readFileSync(tokenFile(), 'utf8'))[`remote|${fixture.base}/mcp`].tokens;
    fixture.expireAccessTokens();
    const ep = await endpoint(reply.calls({ id: 'w', name: 'remote__whoami' }), reply.text('Still you.'));
    const r = await runHost(['-p', 'again?'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(ep.requests[1]!.body.contents)).toMatch(/hello client/);
    expect(fixture.seen.refreshes).toBe(1);
    const after = JSON.parse(readFileSync(tokenFile(), 'utf8'))[`remote|${fixture.base}/mcp`].tokens;
    expect(after.access_token).not.toBe(before.access_token);
    expect(statSync(tokenFile()).mode & 0o777).toBe(0o600);
  });

  it('SSE servers sign in and call the same way; --logout forgets the tokens', async () => {
    const r = await signIn(ws, 'legacy');
    expect(r.code, r.stderr).toBe(0);
    const ep = await endpoint(reply.calls({ id: 'w', name: 'legacy__whoami' }), reply.text('Yes.'));
    const ok = await runHost(['-p', 'over sse?'], { ws, url: ep.url });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.stringify(ep.requests[1]!.body.contents)).toMatch(/hello client/);
    const out = await runHost(['mcp', 'auth', 'legacy', '--logout'], { ws });
    expect(out.stdout).toContain('Signed out of "legacy".');
    expect(JSON.parse(readFileSync(tokenFile(), 'utf8'))[`legacy|${fixture.base}/sse`]).toBeUndefined();
  });
});
