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

describe('ask_user over ACP', () => {
  const QUESTION = {
    questions: [
      {
        question: 'Which database?',
        header: 'Database',
        type: 'choice',
        options: [
          { label: 'Postgres', description: 'Relational' },
          { label: 'SQLite', description: 'One file' },
        ],
      },
    ],
  };

  /** The function response the model got for the call, as JSON text. */
  const answerSent = (ep: { requestsOf: (m: string) => { body: unknown }[] }) =>
    JSON.stringify(ep.requestsOf('streamGenerateContent')[1]!.body);

  it('an editor that shows forms gets the question as elicitation/create and its answer reaches the model', async () => {
    const ws = workspace();
    ws.settings(ONLY('memory'));
    const ep = await endpoint(reply.calls({ id: 'a1', name: 'ask_user', args: QUESTION }), reply.text('SQLite it is.'));
    const asked: acp.CreateElicitationRequest[] = [];
    const run = startAcp({
      ws,
      url: ep.url,
      elicit: (req) => {
        asked.push(req);
        return { action: 'accept', content: { q0: 'SQLite', q0_other: 'with WAL' } };
      },
    });
    try {
      const sessionId = await run.open(ws.cwd);
      expect((await run.prompt(sessionId, 'set up storage')).stopReason).toBe('end_turn');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ sessionId, mode: 'form', message: 'Which database?' });
      expect(JSON.stringify(asked[0])).toContain('"const":"SQLite","title":"SQLite — One file"');
      // No permission was asked: asking the user changes nothing.
      expect(run.permissions).toHaveLength(0);
      expect(answerSent(ep)).toContain(
        JSON.stringify(JSON.stringify({ answers: { '0': 'SQLite, with WAL' } })).slice(1, -1),
      );
      const declared = JSON.stringify(ep.requestsOf('streamGenerateContent')[0]!.body.tools);
      expect(declared).toContain('memory__ask_user');
    } finally {
      await run.close();
    }
  });

  it('an editor without forms is not offered ask_user, and a call gets "no user is available" at once', async () => {
    const ws = workspace();
    ws.settings(ONLY('memory'));
    const ep = await endpoint(
      reply.calls({ id: 'a1', name: 'ask_user', args: QUESTION }),
      reply.text('Deciding myself.'),
    );
    const run = startAcp({ ws, url: ep.url });
    try {
      const sessionId = await run.open(ws.cwd);
      expect((await run.prompt(sessionId, 'set up storage')).stopReason).toBe('end_turn');
      expect(answerSent(ep)).toContain('No user is available to answer ask_user');
      const declared = JSON.stringify(ep.requestsOf('streamGenerateContent')[0]!.body.tools ?? []);
      expect(declared).not.toContain('ask_user');
    } finally {
      await run.close();
    }
  });
});
