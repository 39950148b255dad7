import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, startChat, type TmuxUi } from './tmux.js';
import { functionResponseOf } from '../../helpers/request-body.js';

const PROMPT_COMMAND = 'read -p "Project name: " n && echo "created $n" > out.txt && echo "done $n"';
const FOCUS_HINT_IN_JSON = 'letting the user know they can press `tab` to focus into the shell to provide input.';
const PASTE_COMMAND = 'read -p "Paste: " a && echo "pasted [$a]" && stty size';
const hasVi = spawnSync('sh', ['-c', 'command -v vi']).status === 0;

/**
 * The model runs a command that asks for input in the chat: it runs in a pseudo-terminal whose screen shows
 * on the card, Tab gives the user's keys to it, Shift+Tab (or the command ending) gives them back to the
 * prompt, and the model gets what the terminal showed.
 */
describeTmux('the chat: the user types into the command the model ran', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('shell'));
    gemini = await startScriptedGemini([
      reply.calls({ id: 'p1', name: 'shell__run_shell_command', args: { command: PROMPT_COMMAND } }),
      reply.text('Project created.'),
      reply.calls({ id: 'v1', name: 'shell__run_shell_command', args: { command: 'vi note.txt' } }),
      reply.text('Note written.'),
      reply.calls({ id: 'c1', name: 'shell__run_shell_command', args: { command: 'echo waiting; read -p "Go? " a' } }),
      reply.text('Stopped as asked.'),
      reply.calls({ id: 'z1', name: 'shell__run_shell_command', args: { command: PASTE_COMMAND } }),
      reply.text('Pasted and sized.'),
      reply.calls({ id: 'x1', name: 'shell__run_shell_command', args: { command: 'read -p "Never answered: " a' } }),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 40, args: ['--approval-mode', 'yolo'] });
  }, 60_000);

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  const answerOf = (id: string): string => functionResponseOf(gemini.requestsOf('streamGenerateContent'), id);

  it('answers a prompt: Tab, demo Enter; the file is written and the model gets the output', async () => {
    ui.submit('start a project');
    await ui.waitFor((s) => s.includes('│ Project name:') && s.includes('(Tab to focus)'));
    ui.keys('Tab');
    await ui.waitFor('(Shift+Tab to unfocus)');
    ui.type('demo');
    await ui.waitFor('Project name: demo');
    ui.keys('Enter');
    await ui.waitFor('Project created.');
    expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('created demo\n');
    // The model was told, in Gemini CLI 0.61's words, that the user can type into its commands.
    expect(JSON.stringify(gemini.requestsOf('streamGenerateContent')[0]!.body)).toContain(FOCUS_HINT_IN_JSON);
    const answer = answerOf('p1');
    expect(answer).toContain('Output: Project name: demo\\ndone demo');
    expect(answer).not.toContain('Exit Code');
    // The command ended: the keys are the prompt's again.
    ui.type('back at the prompt');
    await ui.waitFor('> back at the prompt');
    ui.keys('C-u');
    await ui.waitFor((s) => !s.includes('> back at the prompt'));
  });

  it.skipIf(!hasVi)('an editor: vi in the card, itext<Esc>:wq<Enter> saves the file', async () => {
    ui.submit('write a note');
    await ui.waitFor((s) => s.includes('(Tab to focus)') && /│ ~/.test(s));
    ui.keys('Tab');
    await ui.waitFor('(Shift+Tab to unfocus)');
    ui.type('ihello from vi');
    await ui.waitFor('hello from vi');
    ui.keys('Escape');
    ui.type(':wq');
    ui.keys('Enter');
    await ui.waitFor('Note written.');
    expect(readFileSync(join(ws.cwd, 'note.txt'), 'utf8')).toBe('hello from vi\n');
    expect(answerOf('v1')).toContain('Output:');
  });

  it('Ctrl-C while focused goes to the command (it ends), Shift+Tab hands the keys back', async () => {
    ui.submit('ask me');
    await ui.waitFor((s) => s.includes('│ Go?') && s.includes('(Tab to focus)'));
    ui.keys('Tab');
    await ui.waitFor('(Shift+Tab to unfocus)');
    ui.keys('BTab');
    await ui.waitFor((s) => s.includes('(Tab to focus)') && !s.includes('(Shift+Tab to unfocus)'));
    ui.keys('Tab');
    await ui.waitFor('(Shift+Tab to unfocus)');
    ui.keys('C-c');
    // The command got the interrupt and ended; the turn goes on and the model gets its result.
    await ui.waitFor('Stopped as asked.');
    expect(answerOf('c1')).toMatch(/Exit Code: 130|Signal: 2/);
    expect(existsSync(join(ws.cwd, 'out.txt'))).toBe(true);
  });

  it('a paste while focused goes to the command; a resized screen resizes its terminal', async () => {
    ui.submit('paste something');
    await ui.waitFor((s) => s.includes('│ Paste:') && s.includes('(Tab to focus)'));
    ui.keys('Tab');
    await ui.waitFor('(Shift+Tab to unfocus)');
    // The card's terminal is the screen's width less its gutter, and at most 24 rows.
    ui.resize(90, 40);
    ui.tmux('set-buffer', 'hello paste');
    ui.tmux('paste-buffer', '-p', '-t', ui.session);
    await ui.waitFor('Paste: hello paste');
    ui.keys('Enter');
    await ui.waitFor('Pasted and sized.');
    expect(answerOf('z1')).toContain('pasted [hello paste]\\n24 84');
  });

  it('Esc while the prompt has the keys cancels the turn; the card keeps the screen as it was', async () => {
    ui.submit('ask and wait');
    await ui.waitFor((s) => s.includes('│ Never answered:') && s.includes('(Tab to focus)'));
    ui.keys('Escape');
    const screen = await ui.waitFor('^C cancelled');
    expect(screen).toMatch(/│ Never answered:\s*\n\s*│ \^C cancelled/);
    expect(screen).not.toContain('(Tab to focus)');
  });
});

/**
 * `tools.shell.enableInteractiveShell: false` (Gemini CLI 0.61's key): the chat's calls say nobody types, so
 * the same command is stopped when it waits for input, as in a headless run; and the model cannot type
 * for itself, since write_to_shell is the host's alone.
 */
describeTmux('the chat with tools.shell.enableInteractiveShell false', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings({ ...ONLY('shell'), tools: { shell: { enableInteractiveShell: false } } });
    gemini = await startScriptedGemini([
      reply.calls({ id: 'p1', name: 'shell__run_shell_command', args: { command: PROMPT_COMMAND } }),
      reply.calls({ id: 'w1', name: 'shell__write_to_shell', args: { pid: 1, input: 'demo\r' } }),
      reply.text('It wanted input.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 40, args: ['--approval-mode', 'yolo'] });
  }, 60_000);

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('the command is stopped as one that wants input; a model call of write_to_shell is refused', async () => {
    ui.submit('start a project');
    const screen = await ui.waitFor('It wanted input.');
    expect(screen).not.toContain('(Tab to focus)');
    const body = JSON.stringify(gemini.requestsOf('streamGenerateContent').at(-1)!.body);
    expect(body).toContain('Command was stopped because it wanted input: `bash`');
    expect(body).toMatch(/Tool \\"shell__write_to_shell\\" not found/);
    expect(existsSync(join(ws.cwd, 'out.txt'))).toBe(false);
    const declared = JSON.stringify(gemini.requestsOf('streamGenerateContent')[0]!.body);
    expect(declared).toContain('shell__run_shell_command');
    expect(declared).not.toContain('write_to_shell');
    expect(declared).not.toContain(FOCUS_HINT_IN_JSON);
  });
});
