import { describe, expect, it } from 'vitest';
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
});
