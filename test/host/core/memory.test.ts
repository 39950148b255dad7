import { afterAll, describe, expect, it } from 'vitest';
import { reply, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';

describe('system instruction: memory context from the memory server, refreshed on resources/updated', () => {
  const ws = workspace();
  ws.settings(ONLY('memory'));
  ws.file('GEMINI.md', 'Project rule: indent with tabs.\n');
  let close = async () => {};
  afterAll(() => close());

  it('carries GEMINI.md content and picks up a saved memory on the next request', async () => {
    const ep = await startScriptedGemini([
      reply.calls({ id: 'm1', name: 'memory__save_memory', args: { fact: 'The user drinks green tea' } }),
      reply.text('Noted.'),
    ]);
    close = () => ep.close();
    const r = await runHost(['-p', 'remember that I drink green tea', '-y'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = ep
      .requestsOf('streamGenerateContent')
      .map((q) => q.body.systemInstruction.parts[0].text as string);
    expect(first).toContain('Project rule: indent with tabs.');
    expect(first).not.toContain('green tea');
    expect(first).toContain('`memory__save_memory`');
    expect(second).toContain('The user drinks green tea');
  });
});
