import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, INPUT_READY, type TmuxUi, startChat } from './tmux.js';

// The answer the UI bench streams: sixty sentences that share most of their words. Loop detection took
// them for a loop and stopped the turn after 27 chunks, which looked like a chat that stopped streaming.
const SENTENCES = Array.from(
  { length: 60 },
  (_, i) => `Step ${i} of a **streamed** answer with \`code\` and words.\n\n`,
);

describeTmux('a long streamed answer in the chat', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    gemini = await startScriptedGemini([{ ...reply.text(...SENTENCES), chunkDelayMs: 5 }]);
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 30 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('arrives whole: every chunk is rendered and the turn is not stopped as a loop', async () => {
    ui.submit('walk me through it');
    const screen = await ui.waitFor('Step 59 of a streamed answer');
    expect(screen).not.toContain('Loop detected');
    await ui.waitFor(INPUT_READY);
    // Scrolled back, the middle of the answer is there too.
    ui.keys('PageUp');
    await ui.waitFor('Step 40 of a streamed answer');
  });
});
