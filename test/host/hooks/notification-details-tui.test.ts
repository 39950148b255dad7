import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from '../ui/tmux.js';
import { hook, records } from './record-hook.js';

const FAULT = join(import.meta.dirname, '../../fixtures/fault-server.mjs');

/**
 * A Notification hook written for Gemini CLI 0.61 reads `details.command`, `details.filePath`,
 * `details.serverName`: the details are Gemini CLI's serialized confirmation, not our own detail object.
 */
describeTmux('Notification hook payload on a permission request (the chat)', () => {
  const ws = workspace();
  const log = join(ws.home, 'hooks.log');
  const target = join(ws.cwd, 'draft.md');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  const notes = () => records(log).map((r) => r.payload);

  beforeAll(async () => {
    ws.settings({
      ...ONLY('filesystem', 'shell'),
      mcpServers: { fault: { command: process.execPath, args: [FAULT] } },
      hooks: {
        Notification: [{ matcher: 'ToolPermission', hooks: [{ type: 'command', command: hook(log, 'pass') }] }],
      },
    });
    gemini = await startScriptedGemini([
      reply.calls({ id: 's1', name: 'shell__run_shell_command', args: { command: 'echo hi && ls -la' } }),
      reply.text('Listed.'),
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: target, content: 'one\n' } }),
      reply.text('Written.'),
      reply.calls({ id: 'm1', name: 'fault__echo_env', args: {} }),
      reply.text('Echoed.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 110, height: 40 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('a shell call, an edit and another server’s tool send Gemini CLI’s details and message', async () => {
    const approve = async (prompt: string, done: string, count: number) => {
      ui.submit(prompt);
      await ui.waitFor('[y] allow once');
      // The hook runs before the question is shown (awaited, as in Gemini CLI).
      expect(notes()).toHaveLength(count);
      ui.type('y');
      await ui.waitFor(done);
    };
    await approve('list', 'Listed.', 1);
    await approve('write', 'Written.', 2);
    await approve('echo', 'Echoed.', 3);
    expect(readFileSync(target, 'utf8')).toBe('one\n');
    const [shell, edit, mcp] = notes();
    expect(shell).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'ToolPermission',
      message: 'Tool Confirm Shell Command requires execution',
      details: { type: 'exec', title: 'Confirm Shell Command', command: 'echo hi && ls -la', rootCommand: 'echo, ls' },
    });
    expect(edit.message).toBe('Tool Confirm Write: draft.md requires editing');
    expect(edit.details).toMatchObject({
      type: 'edit',
      title: 'Confirm Write: draft.md',
      fileName: 'draft.md',
      filePath: target,
      newContent: 'one\n',
    });
    expect(edit.details.fileDiff).toContain('+one');
    expect(mcp).toMatchObject({
      message: 'Tool Confirm MCP Tool Execution requires MCP',
      details: {
        type: 'mcp',
        title: 'Confirm MCP Tool Execution',
        serverName: 'fault',
        toolName: 'echo_env',
        toolDisplayName: 'echo_env (fault MCP Server)',
      },
    });
  });
});
