import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

describe('long headless runs', () => {
  const ws = workspace();
  ws.settings(ONLY('filesystem'));
  const endpoint = scriptedEndpoints();

  it('fifteen model requests on one turn signal leave no abort listeners behind (no MaxListenersExceededWarning)', async () => {
    const calls = Array.from({ length: 15 }, (_, i) => {
      const file = ws.file(`f${i}.txt`, `${i}\n`);
      return reply.calls({ id: `r${i}`, name: 'filesystem__read_file', args: { absolute_path: file } });
    });
    const ep = await endpoint(...calls, reply.text('done'));
    const r = await runHost(['-p', 'read them all'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('done\n');
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
  });
});
