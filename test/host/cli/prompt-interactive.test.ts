import { describe, expect, it } from 'vitest';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';

describe('-i/--prompt-interactive without a terminal', () => {
  const endpoint = scriptedEndpoints();

  it('is an input error naming -p, not a silently dropped prompt; nothing reaches the model', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const ep = await endpoint(reply.text('never'));
    const r = await runHost(['-i', 'explain this repo'], { ws, url: ep.url });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain('--prompt-interactive (-i) needs a terminal');
    expect(r.stderr).toContain('-p');
    expect(ep.requests).toHaveLength(0);
  });
});
