import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

describeTmux('tool output in the chat', () => {
  const ws = tempDir('ui-ws-');
  const home = tempDir('ui-home-');
  writeFileSync(join(ws, 'GEMINI.md'), '# Project notes\n');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    gemini = await startScriptedGemini([
      reply.calls({ id: 's1', name: 'shell__run_shell_command', args: { command: 'seq 1 60 | sed s/^/row-/' } }),
      reply.text('Counted.'),
      reply.calls({
        id: 's2',
        name: 'shell__run_shell_command',
        args: { command: 'echo partial-one; echo partial-two; sleep 300' },
      }),
    ]);
    ui = TmuxUi.start({
      cwd: ws,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host), '--yolo'],
      height: 40,
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('the start-up line names the context files and the MCP servers; a first run shows a tip', async () => {
    // The count comes from the memory server once it is connected, a moment after the servers' line.
    const screen = await ui.waitFor(/\(GEMINI\.md\) loaded .*MCP ready: /, 60_000);
    for (const alias of ['filesystem', 'shell', 'web', 'memory']) expect(screen).toContain(alias);
    expect(screen).toContain('1 context file (GEMINI.md) loaded');
    expect(screen).toContain('Tip: ask anything, or /help');
  });

  it('a long output shows its end, says what is hidden, and Ctrl+O expands and collapses it', async () => {
    ui.submit('count');
    const screen = await ui.waitFor('Counted.');
    expect(screen).toContain('row-60');
    expect(screen).toMatch(/first \d+ lines hidden \(ctrl\+o to expand\)/);
    expect(screen).toContain('ctrl+o expand tool output');
    ui.keys('C-o');
    const open = await ui.waitFor('ctrl+o collapse tool output');
    expect(open).not.toContain('lines hidden');
    ui.keys('C-o');
    await ui.waitFor('ctrl+o expand tool output');
  });

  it('Ctrl-C keeps what a command printed and marks the card cancelled', async () => {
    ui.submit('run it');
    await ui.waitFor('partial-two');
    ui.keys('C-c');
    const screen = await ui.waitFor('^C cancelled');
    expect(screen).toContain('partial-one');
    expect(screen).toContain('partial-two');
    expect(screen).toMatch(/- shell__run_shell_command/);
  });
});
