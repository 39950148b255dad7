import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

const hasBwrap = spawnSync('bwrap', ['--version']).status === 0;

describeTmux('a sandboxed command in the approval dialog', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    // CI installs bubblewrap; without it there is no sandbox to show.
    if (!hasBwrap) throw new Error('bubblewrap is needed (apt-get install bubblewrap)');
    ws.settings(ONLY('shell'));
    gemini = await startScriptedGemini([
      reply.calls({ id: 's1', name: 'shell__run_shell_command', args: { command: 'touch made.txt' } }),
      reply.text('Made it.'),
    ]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host), '-s'],
      width: 100,
      height: 30,
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('says the command will run in the sandbox, and the footer says sandbox', async () => {
    ui.submit('make a file');
    const screen = await ui.waitFor('[y] allow once');
    expect(screen).toContain('runs in the sandbox (it writes only in the workspace)');
    expect(screen).toMatch(/· sandbox ·/);
    ui.type('y');
    await ui.waitFor('Made it.');
  });
});
