import { describe, expect, it } from 'vitest';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';

describe('--session-id', () => {
  const endpoint = scriptedEndpoints();

  it('names a new session; an id in use is refused; with --resume it is refused', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const ep = await endpoint(reply.text('first'));
    const r = await runHost(['-p', 'x', '--session-id', 'nightly-42'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const list = await runHost(['--list-sessions'], { ws });
    expect(list.stdout).toContain('[nightly-42]');
    const again = await runHost(['-p', 'y', '--session-id', 'nightly-42'], { ws, url: ep.url });
    expect(again.code).toBe(42);
    expect(again.stderr).toContain('"nightly-42" is already in use');
    expect((await runHost(['-p', 'y', '--session-id', 'a b'], { ws })).stderr).toContain('Invalid session ID');
    expect((await runHost(['-p', 'y', '--session-id', 'z', '-r'], { ws })).stderr).toContain('mutually exclusive');
  });
});
