import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { waitFor } from '../../helpers/wait.js';
import { startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

/** Every update about one call, in order. */
function updatesFor(run: ReturnType<typeof startAcp>, sessionId: string, id: string): acp.SessionUpdate[] {
  return run.updatesOf(sessionId).filter((u) => 'toolCallId' in u && u.toolCallId === id);
}

describe('ACP: reject, allow and cancel in one session', () => {
  it('a rejection answers the model and the prompt goes on; an allow writes; a cancel stops the turn and its prompt stays in history', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem', 'shell'));
    const draft = join(ws.cwd, 'draft.md');
    const write = { name: 'filesystem__write_file', args: { file_path: draft, content: 'hello\n' } };
    const ep = await endpoint(
      reply.calls({ id: 'w1', ...write }),
      reply.text('Understood, I did not write it.'),
      reply.calls({ id: 'w2', ...write }),
      reply.text('Written.'),
      reply.calls({ id: 's1', name: 'shell__run_shell_command', args: { command: 'echo started; sleep 30' } }),
      { ...reply.text('Once upon a time'), hang: true },
      reply.text('You stopped me twice.'),
    );
    const answers = ['reject_once', 'allow_once', 'allow_once'];
    const run = startAcp({ ws, url: ep.url, permission: () => answers.shift() ?? 'reject_once' });
    try {
      const sessionId = await run.open(ws.cwd);

      // 1. Reject: the model hears Gemini CLI's words within the same prompt, which ends with its reply.
      const first = await run.prompt(sessionId, 'write a draft');
      expect(first.stopReason).toBe('end_turn');
      expect(existsSync(draft)).toBe(false);
      expect(ep.requestsOf('streamGenerateContent')).toHaveLength(2);
      expect(JSON.stringify(ep.requestsOf('streamGenerateContent')[1]!.body)).toContain(
        'Tool \\"filesystem__write_file\\" was canceled by the user.',
      );
      expect(run.permissions[0]!.toolCall.title).toBe('Writing to draft.md');
      // Reported once: one failed update carrying Gemini CLI's words, and no message about it.
      const ends = updatesFor(run, sessionId, 'w1').filter((u) => 'status' in u && u.status === 'failed');
      expect(ends).toHaveLength(1);
      expect(JSON.stringify(ends[0])).toContain('was canceled by the user.');
      expect(JSON.stringify(run.updatesOf(sessionId, 'agent_message_chunk'))).not.toMatch(/cancel|reject|declin/i);

      // 2. Allow: the write happens and the prompt ends with the model's reply.
      const second = await run.prompt(sessionId, 'ok, write it');
      expect(second.stopReason).toBe('end_turn');
      expect(readFileSync(draft, 'utf8')).toBe('hello\n');
      // The written file as Gemini CLI's editor mode sends it: a diff of a new file, its kind in _meta.
      expect(updatesFor(run, sessionId, 'w2').at(-1)).toMatchObject({
        status: 'completed',
        content: [{ type: 'diff', oldText: null, newText: 'hello\n', _meta: { kind: 'add' } }],
      });
      expect(run.permissions[1]!.toolCall.title).toBe('Writing to draft.md');

      // 3. Cancel: session/cancel stops the turn while the command runs.
      const third = run.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'run the long job' }],
      });
      await waitFor(() => JSON.stringify(updatesFor(run, sessionId, 's1')).includes('started'), 'output');
      await run.agent.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await third).stopReason).toBe('cancelled');

      // 4. Cancel while the model is still answering.
      const fourth = run.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'tell me a long story' }],
      });
      await waitFor(
        () => JSON.stringify(run.updatesOf(sessionId, 'agent_message_chunk')).includes('Once upon'),
        'text',
      );
      await run.agent.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await fourth).stopReason).toBe('cancelled');

      // 5. The next prompt's request still carries both cancelled prompts: the words, what the model had said,
      // and a marker that it was cut off.
      const fifth = await run.prompt(sessionId, 'what happened?');
      expect(fifth.stopReason).toBe('end_turn');
      const last = JSON.stringify(ep.requestsOf('streamGenerateContent').at(-1)!.body);
      for (const said of [
        'run the long job',
        'tell me a long story',
        'Once upon a time',
        'interrupted',
        'what happened?',
      ])
        expect(last).toContain(said);
    } finally {
      await run.close();
    }
  });
});
