import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

const todos = (...statuses: string[]) =>
  ['Read the parser', 'Fix the bug', 'Add a test', 'Port to Windows'].map((description, i) => ({
    description,
    status: statuses[i],
  }));

describe('write_todos over ACP', () => {
  it('sends the task list as a plan update each time it changes, and session/load sends the last one', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const ep = await endpoint(
      reply.calls({
        id: 'w1',
        name: 'write_todos',
        args: { todos: todos('in_progress', 'pending', 'blocked', 'pending') },
      }),
      reply.calls({
        id: 'w2',
        name: 'write_todos',
        args: { todos: todos('completed', 'in_progress', 'pending', 'cancelled') },
      }),
      reply.text('On it.'),
    );
    const first = startAcp({ ws, url: ep.url });
    const sessionId = await first.open(ws.cwd);
    expect((await first.prompt(sessionId, 'fix the parser')).stopReason).toBe('end_turn');
    const plans = first.updatesOf(sessionId, 'plan');
    expect(plans).toEqual([
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read the parser', priority: 'medium', status: 'in_progress' },
          { content: 'Fix the bug', priority: 'medium', status: 'pending' },
          { content: 'Add a test (blocked)', priority: 'medium', status: 'pending' },
          { content: 'Port to Windows', priority: 'medium', status: 'pending' },
        ],
      },
      {
        sessionUpdate: 'plan',
        entries: [
          { content: 'Read the parser', priority: 'medium', status: 'completed' },
          { content: 'Fix the bug', priority: 'medium', status: 'in_progress' },
          { content: 'Add a test', priority: 'medium', status: 'pending' },
        ],
      },
    ]);
    expect(await first.close()).toBe(0);

    const second = startAcp({ ws, url: ep.url });
    try {
      await second.initialize();
      await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.cwd, mcpServers: [] });
      expect(second.updatesOf(sessionId, 'plan')).toEqual([plans[1]]);
    } finally {
      await second.close();
    }
  });
});
