import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JwtIssuer } from '../helpers/jwt-issuer.js';
import { openRawSession, postRequest, postWithHost, type RawSession, SseReader } from '../helpers/raw-mcp.js';
import { collect, ONLY, runHost, spawnHost, workspace } from '../helpers/run-host.js';
import { reply, startScriptedGemini } from '../helpers/scripted-gemini.mjs';
import { tempDir } from '../helpers/tmp.js';
import { waitFor } from '../helpers/wait.js';
import { HAPROXY, TeamCluster } from './team-cluster.js';

const onCi = !!process.env.CI;
const suite = HAPROXY || onCi ? describe : describe.skip;

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A POST of a JSON-RPC message to `url`, as any MCP client sends it. */
async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, challenge: res.headers.get('www-authenticate') ?? '', text: await res.text() };
}

/** tools/call read_file on a raw session: the HTTP status and, when it ran, the tool's text. */
async function readOn(s: RawSession, id: number, path: string): Promise<{ status: number; text: string }> {
  const res = await postRequest(s, {
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'read_file', arguments: { absolute_path: path } },
  });
  if (res.status !== 200 || !res.headers.get('content-type')?.includes('text/event-stream'))
    return { status: res.status, text: await res.text() };
  const stream = new SseReader(res);
  for (let e = await stream.next(); e; e = await stream.next()) {
    if (!e.data) continue;
    const message = JSON.parse(e.data) as { id?: number; result?: { content: { text: string }[]; isError?: boolean } };
    if (message.id !== id) continue;
    await stream.cancel();
    const result = message.result!;
    return { status: 200, text: `${result.isError ? 'ERROR ' : ''}${result.content.map((c) => c.text).join('')}` };
  }
  return { status: 200, text: 'the stream ended without the answer' };
}

/** `gemini-mcp mcp auth NAME`, with the test as the browser: open the printed URL, follow its redirect home. */
async function signIn(ws: ReturnType<typeof workspace>, name: string) {
  const run = collect(spawnHost(['mcp', 'auth', name], { ws }));
  await waitFor(() => /https?:\/\/\S+authorize\S*/.test(run.stdout()), 'the authorization URL', 30_000);
  const approved = await fetch(/(https?:\/\/\S+authorize\S*)/.exec(run.stdout())![1]!, { redirect: 'manual' });
  expect(approved.status).toBe(302);
  expect((await fetch(approved.headers.get('location')!)).status).toBe(200);
  return run.done;
}

suite(`OAuth behind HAProxy: three replicas checking the issuer's tokens${HAPROXY ? '' : ' [skipped: haproxy is not installed]'}`, () => {
  const issuer = new JwtIssuer();
  const root = tempDir();
  const file = join(root, 'shared.txt');
  // The replicas know their public URL (the audience) only from --resource-url: no --public-host.
  const cluster = new TeamCluster(root, join(tempDir(), 'haproxy.sock'), (lbPort) => [
    '--auth-issuer',
    issuer.base,
    '--resource-url',
    `http://127.0.0.1:${lbPort}/mcp`,
  ]);
  const publicUrl = () => cluster.url;
  const metadataUrl = () => `http://127.0.0.1:${cluster.lbPort}/.well-known/oauth-protected-resource/mcp`;
  const as = (sub: string) => issuer.sign({ aud: publicUrl(), sub });
  /** 4xx answers per replica, as HAProxy counted them: shows which replica answered a refusal. */
  const refusals = async () =>
    Object.fromEntries(Object.entries(await cluster.serverStat('hrsp_4xx')).map(([id, n]) => [id, Number(n)]));
  const since = (before: Record<string, number>, after: Record<string, number>) =>
    Object.fromEntries(Object.keys(after).map((id) => [id, after[id] - (before[id] ?? 0)]));

  beforeAll(async () => {
    if (!HAPROXY) throw new Error('haproxy is not installed: CI installs it (apt-get install haproxy)');
    writeFileSync(file, 'team file\n');
    await issuer.start();
    await cluster.start(3);
  }, 60_000);

  afterAll(async () => {
    cluster.stop();
    await issuer.close();
  });

  it('a valid token opens a session through HAProxy and calls a tool; the metadata answers there', async () => {
    const alice = await openRawSession(cluster.url, bearer(await as('alice')));
    expect(alice.replicaId).toMatch(/^r[123]$/);
    expect(alice.sessionId.startsWith(`${alice.replicaId}.`)).toBe(true);
    const read = await readOn(alice, 2, file);
    expect(read).toEqual({ status: 200, text: 'team file\n' });
    const metadata: unknown[] = [];
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await fetch(`http://127.0.0.1:${cluster.lbPort}${path}`);
      expect(res.status).toBe(200);
      metadata.push(await res.json());
    }
    const expected = {
      resource: publicUrl(),
      authorization_servers: [issuer.base],
      bearer_methods_supported: ['header'],
    };
    expect(metadata).toEqual([expected, expected]);
    // The resource URL's host is answered; any other name still gets 403 (DNS rebinding), valid token or not.
    const port = cluster.replica('r2').port;
    const token = await as('alice');
    expect(await postWithHost(port, `127.0.0.1:${cluster.lbPort}`, INIT, bearer(token))).toBe(200);
    expect(await postWithHost(port, `attacker.example:${cluster.lbPort}`, INIT, bearer(token))).toBe(403);
    expect(await postWithHost(port, `127.0.0.1:${cluster.lbPort + 1}`, INIT, bearer(token))).toBe(403);
    console.log(
      `valid token through HAProxy: session on ${alice.replicaId}, read_file ok; metadata ${JSON.stringify(expected)}`,
    );
  }, 30_000);

  it('missing, wrong-audience and expired tokens get 401 naming the public metadata at every replica', async () => {
    const now = Math.floor(Date.now() / 1000);
    const invalid = (why: string) => `Bearer error="invalid_token", error_description="${why}", `;
    // Each case: the label, the request's headers, and the challenge before its resource_metadata.
    const cases: [string, Record<string, string>, string][] = [
      ['missing', {}, 'Bearer '],
      // A token the issuer minted for another resource: here, a replica's own address.
      [
        'wrong audience',
        bearer(await issuer.sign({ aud: cluster.replica('r1').proc.url })),
        invalid('the token is not for this resource (its audience does not match)'),
      ],
      [
        'expired',
        bearer(await issuer.sign({ aud: publicUrl(), iat: now - 7200, exp: now - 3600 })),
        invalid('the token has expired'),
      ],
    ];
    const named = `resource_metadata="${metadataUrl()}"`;
    const lines: string[] = [];
    for (const [label, headers, why] of cases) {
      // Straight at each replica's own port: each names the public metadata, not its own address.
      for (const r of cluster.replicas) {
        const res = await post(r.proc.url, INIT, headers);
        expect(res.status, `${label} at ${r.id}: ${res.text}`).toBe(401);
        expect(res.challenge).toBe(`${why}${named}`);
      }
      // Through HAProxy: new sessions go round-robin, so three initializes reach the three replicas.
      const before = await refusals();
      for (let i = 0; i < 3; i++) {
        const res = await post(cluster.url, INIT, headers);
        expect(res.status, `${label} through HAProxy: ${res.text}`).toBe(401);
        expect(res.challenge).toBe(`${why}${named}`);
      }
      const answered = since(before, await refusals());
      expect(answered).toEqual({ r1: 1, r2: 1, r3: 1 });
      lines.push(`${label}: 401 at r1, r2, r3 directly; through HAProxy ${JSON.stringify(answered)}`);
    }
    console.log(`refused tokens (challenge names ${metadataUrl()}):\n  ${lines.join('\n  ')}`);
  }, 30_000);

  it("user B's valid token on user A's session gets 404 at A's replica through HAProxy; A's session still works", async () => {
    const alice = await openRawSession(cluster.url, bearer(await as('alice')));
    const bobToken = await as('bob');
    const asBob: RawSession = { ...alice, headers: { ...alice.headers, ...bearer(bobToken) } };
    const { authorization: _a, ...anonymous } = alice.headers;
    const before = await refusals();
    const stolen = await readOn(asBob, 3, file);
    const closed = await fetch(cluster.url, { method: 'DELETE', headers: asBob.headers });
    const noToken = await post(cluster.url, { jsonrpc: '2.0', id: 9, method: 'tools/list' }, anonymous);
    const answered = since(before, await refusals());
    expect(noToken.status).toBe(401);
    expect(noToken.challenge).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    expect(stolen.status).toBe(404);
    expect(stolen.text).toContain('Session not found');
    expect(closed.status).toBe(404);
    // All three went to A's replica (routed by the session id's prefix), which refused them.
    expect(answered).toEqual({ r1: 0, r2: 0, r3: 0, [alice.replicaId!]: 3 });
    // Bob's own session works; Alice's is untouched by his attempts.
    const bob = await openRawSession(cluster.url, bearer(bobToken));
    expect(await readOn(bob, 4, file)).toEqual({ status: 200, text: 'team file\n' });
    const after = await readOn(alice, 5, file);
    expect(after).toEqual({ status: 200, text: 'team file\n' });
    console.log(
      `bob on alice's session (${alice.replicaId}): call ${stolen.status}, DELETE ${closed.status}, no token ${noToken.status}, refusals per replica ${JSON.stringify(answered)}; ` +
        `bob's own session on ${bob.replicaId} ok; alice's next call ${after.status}`,
    );
  }, 30_000);

  /** `gemini-mcp -p` in `ws`, the model reading the team file through HAProxy: the exit code and what the tool answered. */
  const hostReads = async (ws: ReturnType<typeof workspace>) => {
    const ep = await startScriptedGemini([
      reply.calls({ id: 'r', name: 'team__read_file', args: { absolute_path: file } }),
      reply.text('read it'),
    ]);
    const run = await runHost(['-p', 'read the team file'], { ws, url: ep.url }).finally(() => ep.close());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('read it');
    return JSON.stringify(ep.requestsOf('streamGenerateContent')[1].body.contents.at(-1));
  };
  const hostWs = workspace();

  it('gemini-mcp signs in through HAProxy (discovering the issuer from the 401) and the model reads a file', async () => {
    hostWs.settings({ ...ONLY(), mcpServers: { team: { httpUrl: cluster.url, trust: true } } });
    const signed = await signIn(hostWs, 'team');
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stdout).toContain('Signed in to "team".');
    expect(issuer.authorizeParams.at(-1)!.resource?.href).toBe(publicUrl());
    expect(await hostReads(hostWs)).toContain('team file');
    const list = await runHost(['mcp', 'list'], { ws: hostWs });
    const line = list.stdout.split('\n').find((l) => l.includes('team ('));
    expect(line).toMatch(/Connected \(replica r[123]\)/);
    console.log(`gemini-mcp through HAProxy: signed in (audience ${publicUrl()}), -p read ok; mcp list: ${line}`);
  }, 60_000);

  it("gemini-mcp's expired token: a replica's 401 reaches it through HAProxy, it refreshes and the call goes through", async () => {
    const store = join(hostWs.home, '.gemini', 'mcp-oauth-tokens.json');
    const key = `team|${publicUrl()}`;
    const stored = JSON.parse(readFileSync(store, 'utf8'));
    const now = Math.floor(Date.now() / 1000);
    const expired = await issuer.sign({ aud: publicUrl(), iat: now - 7200, exp: now - 3600 });
    stored[key].tokens.access_token = expired;
    writeFileSync(store, JSON.stringify(stored), { mode: 0o600 });
    // Expired tokens each replica refused so far (its log): the earlier tests sent some.
    const refusals = () => cluster.replicas.map((r) => r.proc.stderr().split('the token has expired').length - 1);
    const before = refusals();
    expect(await hostReads(hostWs)).toContain('team file');
    const after = refusals();
    const refusedBy = cluster.replicas.filter((_r, i) => after[i] > before[i]).map((r) => r.id);
    const renewed = JSON.parse(readFileSync(store, 'utf8'))[key].tokens.access_token;
    expect(renewed).not.toBe(expired);
    expect(refusedBy.length).toBeGreaterThan(0);
    console.log(
      `gemini-mcp with an expired token: refused by ${refusedBy.join(', ')} (expired-token refusals per replica ${JSON.stringify(before)} → ${JSON.stringify(after)}), refreshed, -p read ok`,
    );
  }, 60_000);
});
