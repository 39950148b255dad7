import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { waitFor } from '../../helpers/wait.js';
import { describeTmux, startChat, type TmuxUi } from './tmux.js';
import { functionResponseOf } from '../../helpers/request-body.js';

describeTmux('plan mode in the chat: the model plans, the user approves in a dialog', () => {
  const ws = workspace();
  const session = 'plan-chat-1';
  const plan = join(defaultProjectTempDir(ws.cwd, {}, ws.home), session, 'plans', 'parser.md');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('filesystem'));
    gemini = await startScriptedGemini([
      reply.calls({ id: 'e1', name: 'enter_plan_mode', args: { reason: 'a parser rewrite' } }),
      reply.calls({
        id: 'w1',
        name: 'filesystem__write_file',
        args: { file_path: plan, content: '# Parser plan\n1. Split the tokenizer.\n' },
      }),
      reply.calls({ id: 'x1', name: 'exit_plan_mode', args: { plan_filename: 'parser.md' } }),
      reply.text('I will revise it.'),
      reply.calls({ id: 'x2', name: 'exit_plan_mode', args: { plan_filename: 'parser.md' } }),
      reply.text('Implementing now.'),
    ]);
    ui = await startChat({
      ws,
      url: gemini.url,
      width: 110,
      height: 40,
      args: ['--approval-mode', 'auto_edit', '--session-id', session],
    });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  const answerOf = (id: string): string => functionResponseOf(gemini.requestsOf('streamGenerateContent'), id);

  it('shows the plan with approve / feedback / cancel; feedback keeps plan mode, approval returns to the mode the user was in', async () => {
    expect(await ui.waitFor(/· auto-edit ·/)).toBeTruthy();
    ui.submit('rewrite the parser');
    const dialog = await ui.waitFor('[f] no, give feedback');
    expect(dialog).toContain('Plan Approval');
    expect(dialog).toContain('1. Split the tokenizer.');
    expect(dialog).toContain('[y] approve the plan');
    expect(dialog).toContain('Approving switches to Auto-Edit mode');
    // The model's plan was written unasked (its one allowed write); the footer shows plan mode.
    expect(readFileSync(plan, 'utf8')).toContain('Split the tokenizer');
    expect(dialog).toMatch(/· plan ·/);
    ui.type('f');
    await ui.waitFor('Feedback:');
    ui.type('keep the old API');
    ui.keys('Enter');
    await ui.waitFor('I will revise it.');
    expect(answerOf('x1')).toContain('Plan rejected. User feedback: keep the old API');
    expect(ui.capture()).toMatch(/· plan ·/);
    ui.submit('revised?');
    await ui.waitFor('[y] approve the plan');
    ui.type('y');
    const done = await ui.waitFor('Implementing now.');
    await waitFor(() => answerOf('x2') !== '', 'the answer to the approved exit_plan_mode');
    expect(answerOf('x2')).toContain(
      'Plan approved. Switching to Auto-Edit mode (edits will be applied automatically).',
    );
    expect(done).toMatch(/· auto-edit ·/);
  });
});
