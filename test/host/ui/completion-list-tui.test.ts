import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

describeTmux('the live completion list while a command is typed', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    gemini = await startScriptedGemini([reply.text('unused')]);
    ui = await startChat({ ws, url: gemini.url, width: 80, height: 24 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('lists the matching commands with what they do as you type; Tab and arrows cycle; it clears when the input changes', async () => {
    ui.type('/m');
    // Every command starting with /m, each with what it does.
    const screen = await ui.waitFor(/\/memory +memory: show/);
    expect(screen).toMatch(/\/model /);
    ui.keys('Tab');
    await ui.waitFor(/^> \/mcp\s*$/m);
    ui.keys('Tab');
    await ui.waitFor(/^> \/memory\s*$/m);
    ui.type(' ');
    // The input changed and is no longer a command name: the list is gone.
    await ui.waitFor((s) => !s.includes('memory: show'));
    ui.keys(...Array.from({ length: 8 }, () => 'BSpace'));
    ui.type('/ex');
    await ui.waitFor(/\/export-session/);
    ui.keys('Down');
    await ui.waitFor(/^> \/export-session\s*$/m);
    ui.keys('Down');
    await ui.waitFor(/^> \/extensions\s*$/m);
    ui.keys('Escape');
    await ui.waitFor((s) => !/❯ \/ex/.test(s));
  });
});
