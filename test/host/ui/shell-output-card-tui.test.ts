import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

describeTmux("a long command's card, when the model ran it", () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings({ ...ONLY('shell'), tools: { allowed: ['run_shell_command(seq)'] } });
    gemini = await startScriptedGemini([
      reply.calls({ id: 's1', name: 'shell__run_shell_command', args: { command: 'seq 1 30000' } }),
      reply.text('Counted to thirty thousand.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 120, height: 40 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it("shows the output's end, no internal lines, and links the file with the whole output", async () => {
    ui.submit('count');
    const screen = await ui.waitFor('Counted to thirty thousand.');
    expect(screen).toMatch(/│ 30000/);
    expect(screen).not.toContain('untrusted_context');
    expect(screen).not.toContain('PGID');
    // The path may wrap at the pane's edge.
    expect(screen.replace(/\n/g, '')).toMatch(/full output: \S*tool-outputs\/run_shell_command_s1_\w+\.txt/);
  });
});
