import { describe, expect, it } from 'vitest';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';

describe('settings typos', () => {
  const endpoint = scriptedEndpoints();

  it('an unknown key warns with the closest known key; known Gemini CLI keys do not warn', async () => {
    const ws = workspace();
    ws.settings({
      ...ONLY(),
      modle: { name: 'x' },
      model: { nmae: 'gemini-2.5-pro' },
      ui: { theme: 'GitHub', hideTips: true },
      general: { vimMode: true },
    });
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'x'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/unknown setting "modle" \(did you mean "model"\?\)/);
    expect(r.stderr).toMatch(/unknown setting "model\.nmae" \(did you mean "model\.name"\?\)/);
    expect(r.stderr).not.toContain('"ui.');
    expect(r.stderr).not.toContain('vimMode');
  });

  it('deprecated keys Gemini CLI migrates silently do not warn on every run', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY(), general: { disableAutoUpdate: true, disableUpdateNag: false } });
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'x'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('ok');
    expect(r.stderr).not.toContain('disableAutoUpdate');
    expect(r.stderr).not.toContain('disableUpdateNag');
  });

  it('every type error is listed, not only the first', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY(), model: { name: 3, maxSessionTurns: 'ten' }, general: { maxAttempts: 'many' } });
    const r = await runHost(['-p', 'x'], { ws });
    expect(r.code).toBe(52);
    expect(r.stderr).toContain('3 problems');
    for (const key of ['"model.name"', '"model.maxSessionTurns"', '"general.maxAttempts"'])
      expect(r.stderr).toContain(key);
  });
});
