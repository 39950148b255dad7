import { describe, expect, it } from 'vitest';
import { reply, startScriptedGemini, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { collect, ONLY, spawnHost, workspace } from '../../helpers/run-host.js';
import { waitFor } from '../../helpers/wait.js';
import { liveGroupMembers } from './procs.js';

type Part = { text?: string; functionResponse?: { name: string; response: { output?: string } } };
type Body = { contents?: { parts?: Part[] }[] };

/** The function responses the host sent in a request, by tool name. */
function responsesIn(body: unknown): Map<string, string> {
  const parts = (body as Body).contents?.at(-1)?.parts ?? [];
  return new Map(
    parts.flatMap((p) =>
      p.functionResponse ? [[p.functionResponse.name, p.functionResponse.response.output ?? '']] : [],
    ),
  );
}

const pidIn = (text: string | undefined) =>
  Number(/Command is running in background\. PID: (\d+)\./.exec(text ?? '')?.[1]);

/**
 * A model turn that starts a 30-second command with `is_background: true` (the way Gemini CLI 0.61's
 * model starts `npm run dev`) through the real host, headless: the call answers with the pid while the
 * command runs, a later call reads its output, and nothing of the job outlives the host.
 */
describe('background commands through the host (headless)', () => {
  const command = 'echo serving on 8080; sleep 30 & sleep 30';

  /** Turn 1 starts the job; once its pid comes back, turn 2 reads its output; then the model is done. */
  async function scripted(final: ReturnType<typeof reply.text>): Promise<ScriptedGemini> {
    return startScriptedGemini([], {
      responder: (record: { method: string; body: unknown }) => {
        if (record.method !== 'streamGenerateContent') return undefined;
        const sent = responsesIn(record.body);
        const started = sent.get('shell__run_shell_command');
        if (started) {
          return reply.calls({ id: 'r1', name: 'shell__read_background_output', args: { pid: pidIn(started) } });
        }
        if (sent.has('shell__read_background_output')) return final;
        return reply.calls({
          id: 's1',
          name: 'shell__run_shell_command',
          args: { command, is_background: true, description: 'Start the dev server' },
        });
      },
    });
  }

  it('the turn goes on while the job runs, a later call reads its output, and the job ends with the host', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY('shell'), tools: { allowed: ['run_shell_command'] } });
    const ep = await scripted(reply.text('The dev server is up.'));
    try {
      const started = Date.now();
      const host = collect(spawnHost(['-p', 'start the dev server'], { ws, url: ep.url }));
      const r = await host.done;
      const elapsed = Date.now() - started;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('The dev server is up.');
      const streams = ep.requestsOf('streamGenerateContent');
      const startedText = responsesIn(streams[1]!.body).get('shell__run_shell_command')!;
      // The call answered while the command still ran: with its pid, not with its end.
      expect(startedText).toMatch(/Command is running in background\. PID: \d+\. Initial output:\n/);
      const pid = pidIn(startedText);
      expect(responsesIn(streams[2]!.body).get('shell__read_background_output')).toContain(
        'Full Log Output:\nserving on 8080',
      );
      // Gemini CLI 0.61 leaves such a job running with parent 1; nothing of ours outlives the host.
      // Bounded well below the job's own 30 s, so only its being killed passes.
      await waitFor(() => liveGroupMembers(pid).length === 0, 'the job to be gone after the host exited', 20_000);
      // The whole run took a fraction of the command's 30 s (a report, not a timed assertion).
      console.info(`headless run with a 30 s background job: ${elapsed} ms`);
    } finally {
      await ep.close();
    }
  }, 120_000);

  it('SIGKILL of the host mid-turn still ends the job with everything it started', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY('shell'), tools: { allowed: ['run_shell_command'] } });
    // The model never answers after the read: the host is killed while it waits.
    const ep = await scripted({ ...reply.text('never sent'), hang: true } as ReturnType<typeof reply.text>);
    try {
      const child = spawnHost(['-p', 'start the dev server'], { ws, url: ep.url });
      const host = collect(child);
      await waitFor(() => ep.requestsOf('streamGenerateContent').length >= 3, 'the model turn after the read');
      const pid = pidIn(responsesIn(ep.requestsOf('streamGenerateContent')[1]!.body).get('shell__run_shell_command'));
      expect(liveGroupMembers(pid).length).toBeGreaterThan(0);
      child.kill('SIGKILL');
      await host.done;
      // The shell server sees its stdin close and ends the group; no process of the job survives.
      await waitFor(() => liveGroupMembers(pid).length === 0, 'the job to be gone after SIGKILL of the host', 20_000);
    } finally {
      await ep.close();
    }
  }, 120_000);
});
