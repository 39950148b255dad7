import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { messageText, startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

describe('ACP session/load replays what the chat showed', () => {
  it("the user's own words, no host markers, and a rejected call as failed", async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    ws.file('a.txt', 'apple\n');
    const target = join(ws.cwd, 'b.txt');
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: target, content: 'B\n' } }),
      reply.text('OK, not written.'),
    );
    const first = startAcp({ ws, url: ep.url, permission: () => 'reject_once' });
    const sessionId = await first.open(ws.cwd);
    await first.prompt(sessionId, 'write b.txt');
    await first.prompt(sessionId, 'never mind, look at @a.txt');
    expect(await first.close()).toBe(0);
    // The second prompt followed a turn that ended on a call's response: the host told the model so.
    const sent = JSON.stringify(ep.requestsOf('streamGenerateContent').at(-1)!.body);
    expect(sent).toContain('interrupted before it completed');

    const second = startAcp({ ws, url: ep.url });
    try {
      await second.initialize();
      await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.cwd, mcpServers: [] });
      const users = second
        .updatesOf(sessionId, 'user_message_chunk')
        .map((u) => (u.sessionUpdate === 'user_message_chunk' && u.content.type === 'text' ? u.content.text : ''));
      expect(users).toEqual(['write b.txt', 'never mind, look at @a.txt']);
      expect(messageText(second, sessionId)).toBe('OK, not written.');
      const ends = second.updatesOf(sessionId, 'tool_call_update').map((u) => (u as { status?: string }).status);
      expect(ends).toEqual(['failed']);
    } finally {
      await second.close();
    }
  });
});
