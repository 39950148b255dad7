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
      reply.text('It holds apple.'),
    );
    const first = startAcp({ ws, url: ep.url, permission: () => 'reject_once' });
    const sessionId = await first.open(ws.cwd);
    await first.prompt(sessionId, 'write b.txt');
    await first.prompt(sessionId, 'never mind, look at @a.txt');
    expect(await first.close()).toBe(0);
    // The rejection answered the model within the first prompt, which went on to the model's reply.
    const requests = ep.requestsOf('streamGenerateContent');
    expect(requests).toHaveLength(3);
    expect(JSON.stringify(requests[1]!.body)).toContain('Tool \\"filesystem__write_file\\" was canceled by the user.');
    expect(JSON.stringify(requests[2]!.body)).not.toContain('interrupted before it completed');

    const second = startAcp({ ws, url: ep.url });
    try {
      await second.initialize();
      await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.cwd, mcpServers: [] });
      const users = second
        .updatesOf(sessionId, 'user_message_chunk')
        .map((u) => (u.sessionUpdate === 'user_message_chunk' && u.content.type === 'text' ? u.content.text : ''));
      expect(users).toEqual(['write b.txt', 'never mind, look at @a.txt']);
      expect(messageText(second, sessionId)).toBe('OK, not written.It holds apple.');
      const ends = second.updatesOf(sessionId, 'tool_call_update').map((u) => (u as { status?: string }).status);
      expect(ends).toEqual(['failed']);
    } finally {
      await second.close();
    }
  });
});
