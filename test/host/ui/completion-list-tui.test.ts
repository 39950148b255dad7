import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

describeTmux('the live completion list while a command is typed', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    gemini = await startScriptedGemini([reply.text('unused')]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 80,
      height: 24,
    });
    await ui.waitFor(INPUT_READY);
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
