import { spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { functionResponseOf } from '../../helpers/request-body.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { waitFor } from '../../helpers/wait.js';
import { describeTmux, startChat, type TmuxUi } from './tmux.js';

const MARKER = `ishell-gone-${process.pid}`;

/**
 * The user has the keys in a command's terminal and the command is killed from outside. Its card stays
 * focused until the call is over, and here an AfterTool hook holds the call open after the process is
 * gone (it waits on a fifo the test opens last): what the user types then cannot reach the command, and
 * the chat must say so and give the keys back to the prompt rather than swallow them.
 */
describeTmux('the chat: typing into a command whose process was killed', () => {
  const ws = workspace();
  const started = join(ws.home, 'hook-started');
  const fifo = join(ws.home, 'hook-release');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  /** Ends the hook's wait: its `cat` reads end-of-file. Never blocks, whether or not the hook is waiting. */
  const release = () => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader: the hook is not waiting.
    }
  };

  beforeAll(async () => {
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const hold = `touch '${started}'; cat '${fifo}' >/dev/null`;
    ws.settings({
      ...ONLY('shell'),
      hooks: {
        AfterTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: hold, timeout: 120_000 }] }],
      },
    });
    gemini = await startScriptedGemini([
      reply.calls({
        id: 'g1',
        name: 'shell__run_shell_command',
        args: { command: `read -p "Password ${MARKER}: " a` },
      }),
      reply.text('The command went away.'),
      reply.calls({ id: 'g2', name: 'shell__run_shell_command', args: { command: `read -p "Size ${MARKER}-2: " a` } }),
      reply.text('Gone again.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 40, args: ['--approval-mode', 'yolo'] });
  }, 60_000);

  afterAll(async () => {
    release();
    ui?.kill();
    await gemini?.close();
  });

  it('the chat says the keys were not sent, the prompt gets the keys back, and the next keys go to it', async () => {
    ui.submit('log in');
    await ui.waitFor((s) => s.includes(`Password ${MARKER}:`) && s.includes('(Tab to focus)'));
    ui.keys('Tab');
    await ui.waitFor('(Shift+Tab to unfocus)');
    const pids = spawnSync('pgrep', ['-f', MARKER], { encoding: 'utf8' }).stdout.trim().split('\n');
    expect(pids.length).toBeGreaterThan(0);
    expect(spawnSync('kill', ['-9', ...pids]).status).toBe(0);
    // The server has answered the call (the process is gone) and the hook holds it open.
    await waitFor(() => existsSync(started), 'the AfterTool hook to start');
    expect(ui.capture()).toContain('(Shift+Tab to unfocus)');

    ui.type('hunter2');
    const screen = await ui.waitFor('Input not sent to the command');
    expect(screen.replace(/\s+/g, ' ')).toMatch(
      /Input not sent to the command \(PID \d+\): No command of this session with PID \d+ is running in a terminal.*\(7 typed characters not delivered\)\. The command is no longer running; the keys are the prompt's again\./,
    );
    expect(screen).not.toContain('(Shift+Tab to unfocus)');
    expect(screen).not.toContain('hunter2');

    ui.type('back at the prompt');
    await ui.waitFor('> back at the prompt');
    ui.keys('C-u');
    await ui.waitFor((s) => !s.includes('> back at the prompt'));
    release();
    await ui.waitFor('The command went away.');
  });

  it('a resize that finds the command gone says so (nothing typed was lost) and gives the keys back', async () => {
    rmSync(started, { force: true });
    ui.submit('resize it');
    await ui.waitFor((s) => s.includes(`Size ${MARKER}-2:`) && s.includes('(Tab to focus)'));
    ui.keys('Tab');
    await ui.waitFor('(Shift+Tab to unfocus)');
    const pids = spawnSync('pgrep', ['-f', `${MARKER}-2`], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n');
    expect(spawnSync('kill', ['-9', ...pids]).status).toBe(0);
    await waitFor(() => existsSync(started), 'the AfterTool hook to start');
    ui.resize(90, 40);
    const screen = await ui.waitFor('cannot take input');
    expect(screen.replace(/\s+/g, ' ')).toMatch(
      /The command \(PID \d+\) cannot take input: No command of this session with PID \d+ is running in a terminal.* The command is no longer running; the keys are the prompt's again\./,
    );
    expect(screen).not.toContain('(Shift+Tab to unfocus)');
    ui.type('after resize');
    await ui.waitFor('> after resize');
    ui.keys('C-u');
    await ui.waitFor((s) => !s.includes('> after resize'));
    release();
    await ui.waitFor('Gone again.');
  });
});

/**
 * The command runs on but refuses a write: a paste longer than `write_to_shell` takes in one call. The
 * chat says the paste was not sent and keeps the keys in the terminal, where the next keys still arrive.
 */
describeTmux('the chat: a paste the command cannot take', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('shell'));
    gemini = await startScriptedGemini([
      reply.calls({
        id: 'b1',
        name: 'shell__run_shell_command',
        args: { command: 'read -p "Answer: " a && echo "got [$a]"' },
      }),
      reply.text('Answered.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 40, args: ['--approval-mode', 'yolo'] });
  }, 60_000);

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('says the paste was not delivered, keeps the terminal focused, and the next keys reach the command', async () => {
    ui.submit('ask me');
    await ui.waitFor((s) => s.includes('│ Answer:') && s.includes('(Tab to focus)'));
    ui.keys('Tab');
    await ui.waitFor('(Shift+Tab to unfocus)');
    // Too long for one tmux command line: the paste buffer is loaded from a file.
    const paste = join(ws.home, 'paste.txt');
    writeFileSync(paste, 'x'.repeat(70_000));
    ui.tmux('load-buffer', paste);
    ui.tmux('paste-buffer', '-p', '-t', ui.session);
    const screen = await ui.waitFor('Input not sent to the command');
    expect(screen.replace(/\s+/g, ' ')).toContain('(70000 typed characters not delivered).');
    expect(screen).not.toContain('no longer running');
    expect(screen).toContain('(Shift+Tab to unfocus)');
    ui.type('yes');
    ui.keys('Enter');
    await ui.waitFor('Answered.');
    const answer = functionResponseOf(gemini.requestsOf('streamGenerateContent'), 'b1');
    expect(answer).toContain('got [yes]');
  });
});
