import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

describe('gemini-mcp command line: output formats, exit codes, record and replay', () => {
  const ws = workspace();
  ws.settings(ONLY('filesystem'));
  ws.file('src/a.ts', '// TODO one\n');
  const endpoint = scriptedEndpoints();

  it('--version and --help exit 0', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
    const v = await runHost(['--version'], { ws });
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toBe(pkg.version);
    const h = await runHost(['-h'], { ws });
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('--output-format');
  });

  it('json: one object with the final turn text, stats and a session id', async () => {
    const ep = await endpoint(
      reply.calls({ id: 'g', name: 'filesystem__glob', args: { pattern: '*.ts' } }),
      reply.text('Final ', 'answer.'),
    );
    const r = await runHost(['-p', 'x', '--output-format', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.response).toBe('Final answer.');
    expect(out.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(out.stats.models['gemini-3-pro-preview'].tokens).toMatchObject({ prompt: 20, candidates: 10, total: 30 });
    expect(out.stats.tools).toMatchObject({
      totalCalls: 1,
      totalSuccess: 1,
      byName: { filesystem__glob: { count: 1 } },
    });
    expect(out.error).toBeUndefined();
  });

  it('41 without credentials, naming what to set (text and json)', async () => {
    const r = await runHost(['-p', 'x'], { ws });
    expect(r.code).toBe(41);
    expect(r.stderr).toContain('GEMINI_API_KEY');
    const j = await runHost(['-p', 'x', '-o', 'json'], { ws, env: { GOOGLE_GENAI_USE_VERTEXAI: 'true' } });
    expect(j.code).toBe(41);
    expect(JSON.parse(j.stdout).error).toMatchObject({ type: 'FatalAuthenticationError', code: 41 });
    expect(JSON.parse(j.stdout).error.message).toContain('GOOGLE_CLOUD_PROJECT');
  });

  it('a Gemini CLI user signed in with Google is told that sign-in is not offered; a key they set is used', async () => {
    const google = workspace();
    google.settings({ ...ONLY('filesystem'), security: { auth: { selectedType: 'oauth-personal' } } });
    // What Gemini CLI keeps after "Login with Google": left alone.
    const creds = join(google.home, '.gemini', 'oauth_creds.json');
    writeFileSync(creds, '{"refresh_token":"r"}');
    const r = await runHost(['-p', 'x'], { ws: google });
    expect(r.code).toBe(41);
    expect(r.stderr).toContain('Your settings choose Login with Google (security.auth.selectedType "oauth-personal")');
    expect(r.stderr).toContain('GEMINI_API_KEY');
    expect(readFileSync(creds, 'utf8')).toBe('{"refresh_token":"r"}');
    const ep = await endpoint(reply.text('Keyed answer.'));
    const keyed = await runHost(['-p', 'x'], { ws: google, url: ep.url });
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(keyed.stdout).toContain('Keyed answer.');
  });

  it('42 for bad input: unknown flag, bad format, empty prompt', async () => {
    const a = await runHost(['--nope'], { ws });
    expect(a.code).toBe(42);
    expect(a.stderr).toContain("Unknown option '--nope'");
    // Every quote the hint opens is closed.
    expect(a.stderr.split("'").length % 2).toBe(1);
    expect(a.stderr).toContain("gemini-mcp -- '--nope'");
    const b = await runHost(['-p', 'x', '-o', 'xml'], { ws });
    expect(b.code).toBe(42);
    expect(b.stderr).toContain('text, json, stream-json');
    const c = await runHost(['-p', '  '], { ws, env: { GEMINI_API_KEY: 'k' } });
    expect(c.code).toBe(42);
    expect(c.stderr).toContain('No input provided');
    const d = await runHost(['-p', 'x', '--approval-mode', 'sometimes'], { ws });
    expect(d.code).toBe(42);
  });

  it('stdin from /dev/null is empty input; stdin from a file is read', async () => {
    const none = await runHost([], { ws, stdinFrom: 'ignore', env: { GEMINI_API_KEY: 'k' } });
    expect(none.code).toBe(42);
    expect(none.stderr).toContain('No input provided');
    const file = join(ws.home, 'prompt.txt');
    writeFileSync(file, 'Say something.\n');
    const fd = openSync(file, 'r');
    try {
      // Read, so the run goes on to the credentials check.
      const read = await runHost([], { ws, stdinFrom: fd });
      expect(read.code).toBe(41);
    } finally {
      closeSync(fd);
    }
  });

  it('52 for invalid settings, naming the file', async () => {
    const bad = workspace();
    bad.settings({ model: { maxSessionTurns: 'many' } });
    const r = await runHost(['-p', 'x'], { ws: bad, env: { GEMINI_API_KEY: 'k' } });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain(join(bad.home, '.gemini', 'settings.json'));
  });

  it('records a session and replays it with --fake-responses (no network) to identical output', async () => {
    const rec = join(ws.home, 'session.jsonl');
    const ep = await endpoint(
      reply.calls({ id: 'g1', name: 'filesystem__glob', args: { pattern: '**/*.ts' } }),
      reply.calls({ id: 's1', name: 'filesystem__search_file_content', args: { pattern: 'TODO' } }),
      reply.text('Found ', 'one TODO.'),
    );
    const first = await runHost(['-p', 'find todos', '-o', 'stream-json', '--record-responses', rec], {
      ws,
      url: ep.url,
    });
    expect(first.code, first.stderr).toBe(0);
    const lines = readFileSync(rec, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.method)).toEqual([
      'generateContentStream',
      'generateContentStream',
      'generateContentStream',
    ]);
    expect(lines[2].response).toHaveLength(2);

    const replay = await runHost(['-p', 'find todos', '-o', 'stream-json', '--fake-responses', rec], { ws });
    expect(replay.code, replay.stderr).toBe(0);
    const strip = (s: string) =>
      s
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map(({ timestamp, session_id, stats, ...rest }) => rest);
    expect(strip(replay.stdout)).toEqual(strip(first.stdout));

    // strict order: a replay that runs out fails clearly
    writeFileSync(rec, JSON.stringify({ method: 'generateContent', response: {} }) + '\n');
    const bad = await runHost(['-p', 'find todos', '--fake-responses', rec], { ws });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('next response was for generateContent but expected generateContentStream');
  });
});
