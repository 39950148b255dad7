import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { waitFor } from '../../helpers/wait.js';
import { messageText, startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

type Body = { contents: { role: string; parts: { text?: string }[] }[] };

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function sentText(body: unknown): string {
  return (body as Body).contents
    .at(-1)!
    .parts.map((p) => p.text ?? '')
    .join('');
}

/** Custom commands reach the editor: listed in available_commands_update, expanded as in the chat. */
describe('ACP custom commands', () => {
  const ws = workspace();
  ws.settings(ONLY('filesystem', 'shell'));
  const userCmds = join(ws.home, '.gemini', 'commands');
  put(
    join(userCmds, 'git', 'commit.toml'),
    [
      'description = "Write a commit message"',
      'prompt = """',
      'Message for: {{args}}',
      'Notes: @{notes.txt}',
      'Echo: !{printf "%s" {{args}}}',
      '"""',
    ].join('\n'),
  );
  put(join(userCmds, 'plain.toml'), 'description = "Review"\nprompt = "Review the code."\n');
  ws.file('notes.txt', 'remember the tests');

  it('are listed with description and input hint; /git:commit args reaches the model expanded', async () => {
    const ep = await endpoint(reply.text('Committed.'), reply.text('Fresh.'));
    const run = startAcp({ ws, url: ep.url, permission: () => 'allow_once' });
    try {
      const sessionId = await run.open(ws.cwd);
      await waitFor(() => run.updatesOf(sessionId, 'available_commands_update').length > 0, 'available commands');
      const update = run.updatesOf(sessionId, 'available_commands_update').at(-1)!;
      const list = update.sessionUpdate === 'available_commands_update' ? update.availableCommands : [];
      expect(list.find((c) => c.name === 'git:commit')).toEqual({
        name: 'git:commit',
        description: 'Write a commit message',
        input: { hint: 'arguments' },
      });
      expect(list.find((c) => c.name === 'plain')).toEqual({ name: 'plain', description: 'Review' });
      expect(list.map((c) => c.name)).toContain('compress');

      const res = await run.prompt(sessionId, '/git:commit fix typo');
      expect(res.stopReason).toBe('end_turn');
      const sent = ep.requestsOf('streamGenerateContent');
      expect(sent).toHaveLength(1);
      expect(sentText(sent[0]!.body)).toBe('Message for: fix typo\nNotes: remember the tests\nEcho: fix typo\n');
      // The !{} asked the editor, with the command as the shell server runs it.
      expect(run.permissions).toHaveLength(1);
      expect(JSON.stringify(run.permissions[0]!.toolCall)).toContain('printf \\"%s\\" \'fix typo\'');
      // The read and the command show as tool calls, then the model's answer.
      const kinds = run.updatesOf(sessionId, 'tool_call').map((u) => (u.sessionUpdate === 'tool_call' ? u.kind : ''));
      expect(kinds).toEqual(['read', 'execute']);
      expect(messageText(run, sessionId)).toBe('Committed.');

      // A command written while the session is open works at the next prompt and the editor's list grows.
      const before = run.updatesOf(sessionId, 'available_commands_update').length;
      put(join(userCmds, 'fresh.toml'), 'description = "Just written"\nprompt = "Fresh: {{args}}"\n');
      await run.prompt(sessionId, '/fresh now');
      expect(sentText(ep.requestsOf('streamGenerateContent')[1]!.body)).toBe('Fresh: now');
      await waitFor(
        () => run.updatesOf(sessionId, 'available_commands_update').length > before,
        'commands update after a new file',
      );
      const after = run.updatesOf(sessionId, 'available_commands_update').at(-1)!;
      expect(
        after.sessionUpdate === 'available_commands_update' && after.availableCommands.map((c) => c.name),
      ).toContain('fresh');
    } finally {
      await run.close();
    }
  }, 60_000);

  it('a !{} the editor rejects sends nothing to the model and says why', async () => {
    const ep = await endpoint(reply.text('never'));
    const run = startAcp({ ws, url: ep.url, permission: () => 'reject_once' });
    try {
      const sessionId = await run.open(ws.cwd);
      const res = await run.prompt(sessionId, '/git:commit x');
      expect(res.stopReason).toBe('end_turn');
      expect(run.permissions).toHaveLength(1);
      expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);
      const said = messageText(run, sessionId);
      expect(said).toContain('/git:commit cannot be run');
      expect(said).toContain('was not approved');
      expect(said).toContain('Nothing was sent to the model.');
      // The rejected command's card does not claim it ran.
      const last = run.updatesOf(sessionId, 'tool_call_update').at(-1)!;
      expect(last.sessionUpdate === 'tool_call_update' && last.status).not.toBe('completed');

      // The session goes on: a command without {{args}} gets the invocation appended, as in the chat.
      const next = await run.prompt(sessionId, '/plain look here');
      expect(next.stopReason).toBe('end_turn');
      expect(run.permissions).toHaveLength(1);
      const sent = ep.requestsOf('streamGenerateContent');
      expect(sent).toHaveLength(1);
      expect(sentText(sent[0]!.body)).toBe('Review the code.\n\n/plain look here');
    } finally {
      await run.close();
    }
  }, 60_000);
});
