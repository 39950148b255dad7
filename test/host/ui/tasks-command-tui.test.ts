import { afterAll, beforeAll, expect, it } from 'vitest';
import { liveGroupMembers } from '../../servers/shell/procs.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { waitFor } from '../../helpers/wait.js';
import { describeTmux, INPUT_READY, type TmuxUi, startChat } from './tmux.js';

type Body = { contents?: { parts?: { functionResponse?: unknown }[] }[] };

/**
 * `/tasks` (Gemini CLI 0.61's command, also `/bg`) in the chat: the model starts a dev server in the
 * background, its turn ends, and the user lists the job and reads its output while it runs.
 */
describeTmux('/tasks: the background commands the model started', () => {
  const ws = workspace();
  const command = 'echo dev-server-ready; sleep 60';
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  let pid = 0;

  beforeAll(async () => {
    ws.settings({ ...ONLY('shell'), tools: { allowed: ['run_shell_command'] } });
    gemini = await startScriptedGemini([], {
      responder: (record: { method: string; body: Body }) => {
        if (record.method !== 'streamGenerateContent') return undefined;
        const answered = record.body.contents?.at(-1)?.parts?.some((p) => p.functionResponse);
        if (answered) return reply.text('The dev server runs in the background.');
        return reply.calls({ id: 'b1', name: 'shell__run_shell_command', args: { command, is_background: true } });
      },
    });
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 40 });
    await ui.waitFor('MCP 1/1');
  }, 60_000);

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('the turn ends while the job runs; /tasks lists it and /bg PID shows its output', async () => {
    ui.submit('start the dev server');
    const started = await ui.waitFor('The dev server runs in the background.');
    pid = Number(/Background process started with PID (\d+)\./.exec(started)?.[1]);
    expect(pid).toBeGreaterThan(1);
    expect(liveGroupMembers(pid).length).toBeGreaterThan(0);

    await ui.waitFor(INPUT_READY);
    ui.submit('/tasks');
    await ui.waitFor(`[PID ${pid}] RUNNING: \`${command}\``);

    await ui.waitFor(INPUT_READY);
    ui.submit(`/bg ${pid}`);
    const screen = await ui.waitFor(/Full Log Output:\s*\n.*dev-server-ready/);
    expect(screen).not.toContain('untrusted_context');
    // Nothing of this went to the model: its two requests were the turn's.
    expect(gemini.requestsOf('streamGenerateContent')).toHaveLength(2);
  });

  it('a bad argument gets the usage, and the job ends with the chat', async () => {
    await ui.waitFor(INPUT_READY);
    ui.submit('/tasks nope');
    await ui.waitFor('Usage: /tasks lists the background commands');
    ui.kill();
    await waitFor(() => liveGroupMembers(pid).length === 0, 'the job to end with the chat', 20_000);
  });
});
