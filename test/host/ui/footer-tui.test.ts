import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { chunk, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

describeTmux('the footer: git branch and context left, as Gemini CLI shows them', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    execFileSync('git', ['init', '-q', '-b', 'feature-x', ws.cwd]);
    // A quarter of the window used by the last request: 262,144 of gemini-3-pro-preview's 1,048,576 tokens.
    const usage = { promptTokenCount: 262_144, candidatesTokenCount: 5, totalTokenCount: 262_149 };
    gemini = await startScriptedGemini([
      { method: 'generateContentStream', response: [chunk([{ text: 'A long context answer.' }], true, usage)] },
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 140, height: 20 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('names the branch beside the folder, and after a request how much of the context is left', async () => {
    await ui.waitFor('(feature-x)');
    ui.submit('hello');
    const screen = await ui.waitFor('A long context answer.');
    expect(await ui.waitFor('(75% context left)')).toContain('(feature-x)');
    // The token count comes from the session's one set of counters (the same /stats reads).
    expect(await ui.waitFor('262k tokens')).toContain('262k tokens');
    expect(screen).toContain('proj');
  });
});
