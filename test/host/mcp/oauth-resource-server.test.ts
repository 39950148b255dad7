import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwtIssuer } from '../../helpers/jwt-issuer.js';
import { ENTRY } from '../../helpers/paths.js';
import { collect, ONLY, runHost, scriptedEndpoints, spawnHost, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { waitFor } from '../../helpers/wait.js';
import { type HttpServerProcess, startHttpServer } from '../../servers/common/http-server.js';

/** `gemini-mcp mcp auth NAME`, with the test as the browser: open the printed URL, follow its redirect home. */
async function signIn(ws: ReturnType<typeof workspace>, name: string) {
  const run = collect(spawnHost(['mcp', 'auth', name], { ws }));
  await waitFor(() => /https?:\/\/\S+authorize\S*/.test(run.stdout()), 'the authorization URL', 30_000);
  const authorizeUrl = /(https?:\/\/\S+authorize\S*)/.exec(run.stdout())![1]!;
  const approved = await fetch(authorizeUrl, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  expect((await fetch(approved.headers.get('location')!)).status).toBe(200);
  return run.done;
}

/**
 * Our host and our filesystem server together: the server accepts only JWTs of a real authorization server
 * on 127.0.0.1; the host discovers that issuer from the server's 401, signs in, and the model's calls go
 * through with the token the issuer minted for the server's URL and scope.
 */
describe('our host signs in to our own OAuth-protected server over HTTP', () => {
  const issuer = new JwtIssuer();
  const endpoint = scriptedEndpoints();
  const ws = workspace();
  const children: ChildProcess[] = [];
  let srv: HttpServerProcess;

  beforeAll(async () => {
    await issuer.start();
    ws.file('plan.md', 'ship the resource server on Friday\n');
    const args = ['--root', ws.cwd, '--auth-issuer', issuer.base, '--required-scope', 'files'];
    srv = await startHttpServer(ENTRY.filesystem, args, children);
    ws.settings({ ...ONLY(), mcpServers: { team: { httpUrl: srv.url, trust: true } } });
  });
  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL');
    await issuer.close();
  });

  it('before signing in the server needs authentication; after, the model reads a file through it', async () => {
    const before = await runHost(['mcp', 'list'], { ws });
    expect(before.stdout + before.stderr).toContain('needs authentication: run "gemini-mcp mcp auth team" to sign in');

    const signed = await signIn(ws, 'team');
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stdout).toContain('Signed in to "team".');
    const asked = issuer.authorizeParams.at(-1)!;
    expect(asked.resource?.href).toBe(srv.url);
    expect(asked.scopes).toEqual(['files']);

    const ep = await endpoint(
      reply.calls({ id: 'r', name: 'team__read_file', args: { absolute_path: `${ws.cwd}/plan.md` } }),
      reply.text('Friday.'),
    );
    const r = await runHost(['-p', 'when do we ship?'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Friday.');
    expect(JSON.stringify(ep.requests[1]!.body.contents)).toContain('ship the resource server on Friday');
    expect(srv.stderr()).not.toContain('refused an access token');
  });

  it('an expired access token is refused with invalid_token; the host refreshes it and the call goes through', async () => {
    const file = join(ws.home, '.gemini', 'mcp-oauth-tokens.json');
    const key = `team|${srv.url}`;
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    const refreshToken = stored[key].tokens.refresh_token;
    expect(refreshToken).toBeTruthy();
    // The issuer's own token for the server, already past its expiry (and the clock tolerance).
    const now = Math.floor(Date.now() / 1000);
    const expired = await issuer.sign({ aud: srv.url, scope: 'files', iat: now - 7200, exp: now - 3600 });
    stored[key].tokens.access_token = expired;
    writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });

    const ep = await endpoint(
      reply.calls({ id: 'r', name: 'team__read_file', args: { absolute_path: `${ws.cwd}/plan.md` } }),
      reply.text('Still Friday.'),
    );
    const r = await runHost(['-p', 'and now?'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.stringify(ep.requests[1]!.body.contents)).toContain('ship the resource server on Friday');
    expect(srv.stderr()).toContain('refused an access token: the token has expired');
    const after = JSON.parse(readFileSync(file, 'utf8'))[key].tokens;
    expect(after.access_token).not.toBe(expired);
    expect(after.refresh_token).not.toBe(refreshToken);
  });
});
