import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { FAULT } from '../mcp/fault-harness.js';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

describeTmux('the chat debug log', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings({
      ...ONLY(),
      mcpServers: {
        noisy: {
          command: process.execPath,
          args: [FAULT],
          env: { FAULT_STATE_DIR: tempDir('fault-state-'), FAULT_LOG_ON_START: 'error:disk quota almost used up' },
        },
      },
    });
    gemini = await startScriptedGemini([]);
    ui = await startChat({ ws, url: gemini.url, height: 30 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it("a server's error log message is counted on the status line; F12 shows it and clears the count", async () => {
    await ui.waitFor('1 log (F12)', 60_000);
    ui.keys('F12');
    const screen = await ui.waitFor('disk quota almost used up');
    expect(screen).toMatch(/error +\[noisy\] log error: disk quota almost used up/);
    await ui.waitFor((s) => !s.includes('(F12)'));
  });

  it('/debug lists the log, /debug clear empties it', async () => {
    ui.submit('/debug clear');
    await ui.waitFor('Debug log cleared.');
    ui.submit('/debug');
    await ui.waitFor('Debug log: nothing yet');
  });
});
