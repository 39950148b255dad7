import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

type Part = { functionResponse?: { name: string; response: Record<string, unknown> } };
type Body = { contents: { parts: Part[] }[]; tools?: { functionDeclarations?: { name: string }[] }[] };

const TODOS = [
  { description: 'Read the parser', status: 'completed' },
  { description: 'Fix the bug', status: 'in_progress' },
  { description: 'Add a test', status: 'pending' },
];

/** The model keeps a task list, then asks the user something: Gemini CLI 0.61's names and arguments. */
const script = () => [
  reply.calls({ id: 'w1', name: 'write_todos', args: { todos: TODOS } }),
  reply.calls({
    id: 'a1',
    name: 'ask_user',
    args: { questions: [{ question: 'Which branch?', header: 'Branch', type: 'text' }] },
  }),
  reply.text('Going on without an answer.'),
];

const answerTo = (b: Body) =>
  JSON.stringify(b.contents.at(-1)!.parts.find((p) => p.functionResponse)!.functionResponse!.response);

describe('write_todos and ask_user headless', () => {
  const endpoint = scriptedEndpoints();

  it('stream-json carries the todo list; ask_user answers at once that no user is available', async () => {
    const ws = workspace();
    ws.settings(ONLY('memory'));
    const ep = await endpoint(...script());
    const r = await runHost(['-p', 'fix the parser', '-o', 'stream-json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const todoResult = events.find((e) => e.type === 'tool_result' && e.tool_id === 'w1');
    expect(todoResult).toMatchObject({ status: 'success', todos: TODOS });
    const asked = events.find((e) => e.type === 'tool_result' && e.tool_id === 'a1');
    expect(asked.status).toBe('error');
    expect(asked.error.message).toContain('No user is available to answer ask_user');
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'success' });

    const requests = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(answerTo(requests[1]!)).toContain(
      'Successfully updated the todo list. The current list is now:\\n1. [completed] Read the parser\\n2. [in_progress] Fix the bug\\n3. [pending] Add a test',
    );
    expect(answerTo(requests[2]!)).toContain('No user is available to answer ask_user');
    // As in Gemini CLI 0.61's headless runs, ask_user is not offered when nobody can answer.
    const declared = requests[0]!.tools?.flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name) ?? [];
    expect(declared).toContain('write_todos');
    expect(declared.some((n) => n.endsWith('ask_user'))).toBe(false);
  });

  it('json reports the last todo list with the response', async () => {
    const ws = workspace();
    ws.settings(ONLY('memory'));
    const done = TODOS.map((t) => ({ ...t, status: 'completed' }));
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'write_todos', args: { todos: TODOS } }),
      reply.calls({ id: 'w2', name: 'write_todos', args: { todos: done } }),
      reply.text('All done.'),
    );
    const r = await runHost(['-p', 'fix it', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.response).toBe('All done.');
    expect(out.todos).toEqual(done);
  });

  it("a list with two tasks in progress is refused with 0.61's message and changes nothing", async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const two = [
      { description: 'a', status: 'in_progress' },
      { description: 'b', status: 'in_progress' },
    ];
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'write_todos', args: { todos: TODOS } }),
      reply.calls({ id: 'w2', name: 'write_todos', args: { todos: two } }),
      reply.text('ok'),
    );
    const r = await runHost(['-p', 'x', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const requests = ep.requestsOf('streamGenerateContent').map((q) => q.body as Body);
    expect(answerTo(requests[2]!)).toContain('Only one task can be \\"in_progress\\" at a time.');
    expect(JSON.parse(r.stdout).todos).toEqual(TODOS);
  });
});
