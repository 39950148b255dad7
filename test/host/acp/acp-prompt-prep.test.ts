import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { EVERYTHING } from '../mcp/everything-helpers.js';
import { messageText, startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

describe('ACP prompts prepared as headless prepares them', () => {
  it('an @name(…) that is no tool is said to the editor, and nothing is sent to the model', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const ep = await endpoint(reply.text('should not be asked'));
    const run = startAcp({ ws, url: ep.url });
    try {
      const sessionId = await run.open(ws.cwd);
      const res = await run.prompt(sessionId, 'look @nosuch__tool()');
      expect(res.stopReason).toBe('end_turn');
      expect(messageText(run, sessionId)).toMatch(/@nosuch__tool\(…\) is not a tool/);
      expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);
    } finally {
      await run.close();
    }
  });

  it('a prompt that is only an @server__tool({…}) call runs it and sends the model nothing', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('notes.txt', 'the notes\n');
    const ep = await endpoint(reply.text('should not be asked'));
    const run = startAcp({ ws, url: ep.url });
    try {
      const sessionId = await run.open(ws.cwd);
      const res = await run.prompt(sessionId, `@filesystem__read_file({"absolute_path": ${JSON.stringify(file)}})`);
      expect(res.stopReason).toBe('end_turn');
      expect(run.updatesOf(sessionId, 'tool_call')).toHaveLength(1);
      expect(JSON.stringify(run.updatesOf(sessionId, 'tool_call_update'))).toContain('the notes');
      expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);
    } finally {
      await run.close();
    }
  });

  it('a warning (a resource that cannot be read) is said to the editor, and the prompt still goes', async () => {
    const ws = workspace();
    ws.settings({
      ...ONLY(),
      mcpServers: { every: { command: process.execPath, args: [EVERYTHING], startup: 'eager' } },
    });
    const ep = await endpoint(reply.text('Answered.'));
    const run = startAcp({ ws, url: ep.url });
    try {
      const sessionId = await run.open(ws.cwd);
      const res = await run.prompt(sessionId, 'explain @every:test://no/such/resource please');
      expect(res.stopReason).toBe('end_turn');
      const said = messageText(run, sessionId);
      expect(said).toMatch(/^Could not read @every:test:\/\/no\/such\/resource/);
      expect(said.endsWith('Answered.')).toBe(true);
      expect(ep.requestsOf('streamGenerateContent')).toHaveLength(1);
    } finally {
      await run.close();
    }
  });
});
