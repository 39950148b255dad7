import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../helpers/gemini-cli.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { pathWithoutBwrap } from '../../helpers/path-without-bwrap.js';

describe('the sandbox asked for, none available (headless)', () => {
  const endpoint = scriptedEndpoints();

  for (const [how, args, env] of [
    ['-s', ['-s'], {}],
    ['GEMINI_SANDBOX=true', [], { GEMINI_SANDBOX: 'true' }],
  ] as const) {
    it(`${how}: exits 44 naming what to install, and asks the model nothing`, async () => {
      const ws = workspace();
      ws.settings(ONLY('shell'));
      const ep = await endpoint(reply.text('an answer that must not be printed'));
      const r = await runHost(['-p', 'list the files', ...args], {
        ws,
        url: ep.url,
        env: { HOME: ws.home, PATH: pathWithoutBwrap(), ...env },
      });
      expect(r.code).toBe(44);
      expect(r.stderr).toMatch(
        /bubblewrap \(bwrap\) is not on PATH; install it \(Debian\/Ubuntu: apt-get install bubblewrap/,
      );
      expect(r.stdout).not.toContain('an answer');
      expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);
    }, 60_000);
  }

  it('--output-format json reports it as FatalSandboxError with exit code 44', async () => {
    const ws = workspace();
    ws.settings(ONLY('shell'));
    const ep = await endpoint(reply.text('unused'));
    const r = await runHost(['-p', 'hi', '-s', '--output-format', 'json'], {
      ws,
      url: ep.url,
      env: { HOME: ws.home, PATH: pathWithoutBwrap() },
    });
    expect(r.code).toBe(44);
    const out = JSON.parse(r.stdout) as { error?: { type?: string; message?: string; code?: number } };
    expect(out.error).toMatchObject({ type: 'FatalSandboxError', code: 44 });
    expect(out.error?.message).toContain('install it');
  }, 60_000);

  it('Gemini CLI 0.61 ends the same way: exit 44, the message naming what to install, no answer', async () => {
    const { entry, why } = geminiCli();
    // CI reaches the npm registry, so a missing Gemini CLI there is a failure, not a skip.
    if (!entry && !process.env.CI) return console.warn(`sandbox-unavailable: Gemini CLI comparison skipped, ${why}`);
    expect(entry, why).toBeDefined();
    const ws = workspace();
    const ep = await endpoint(reply.text('an answer that must not be printed'));
    const env = { HOME: ws.home, PATH: pathWithoutBwrap(), GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: ep.url };
    const r = spawnSync(process.execPath, [entry!, '-s', '-p', 'hi'], { cwd: ws.cwd, env, encoding: 'utf8' });
    expect(r.status).toBe(44);
    expect(r.stderr).toContain('install docker or podman');
    expect(r.stdout).not.toContain('an answer');
  }, 60_000);
});
