import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

describeTmux('@path problems in the chat', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('filesystem'));
    ws.file('notes.md', 'the real notes\n');
    gemini = await startScriptedGemini([reply.text('Read your notes.')]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 100,
      height: 30,
    });
    await ui.waitFor(INPUT_READY);
    await ui.waitFor(/MCP ready/, 60_000);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('a missing @path is named, nothing is sent, and the prompt stays in the input box to fix', async () => {
    ui.submit('summarise @notes.txt');
    const screen = await ui.waitFor('@notes.txt: no such file or directory in the workspace');
    expect(screen).toContain('The prompt is back in the input box');
    expect(screen).toMatch(/>\s+summarise @notes\.txt/);
    expect(gemini.requests).toHaveLength(0);
    // Fix it in place: the last three characters become "md", then send.
    ui.keys('BSpace', 'BSpace', 'BSpace');
    ui.type('md');
    ui.keys('Enter');
    await ui.waitFor('Read your notes.');
    const sent = JSON.stringify(gemini.requests[0]!.body.contents);
    expect(sent).toContain('the real notes');
  });
});
