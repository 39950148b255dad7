import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { latestTodos, todosSetBy } from '../../../host/core/session-todos.js';
import type { ToolCall, ToolRef } from '../../../host/scheduler/types.js';

const list = (...items: [string, string][]) => ({
  todos: items.map(([description, status]) => ({ description, status })),
});
const call = (id: string, args: unknown): Content => ({
  role: 'model',
  parts: [{ functionCall: { id, name: 'write_todos', args: args as Record<string, unknown> } }],
});
const answer = (id: string, response: Record<string, unknown>): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id, name: 'write_todos', response } }],
});

describe('latestTodos', () => {
  it('the last write_todos that was answered without an error', () => {
    const history = [
      call('1', list(['a', 'pending'])),
      answer('1', { output: 'ok' }),
      call('2', list(['a', 'completed'], ['b', 'in_progress'])),
      answer('2', { output: 'ok' }),
      call('3', list(['x', 'pending'])),
      answer('3', { error: 'refused' }),
    ];
    expect(latestTodos(history)).toEqual([
      { description: 'a', status: 'completed' },
      { description: 'b', status: 'in_progress' },
    ]);
  });

  it('a call never answered, or one with invalid arguments, does not count', () => {
    expect(latestTodos([call('1', list(['a', 'pending']))])).toBeUndefined();
    expect(
      latestTodos([call('1', { todos: [{ description: 'a', status: 'weird' }] }), answer('1', { output: 'ok' })]),
    ).toBeUndefined();
    expect(latestTodos([])).toBeUndefined();
  });

  it('answers are paired with their calls by id, whatever the order', () => {
    const history: Content[] = [
      {
        role: 'model',
        parts: [call('a', list(['first', 'pending'])).parts![0]!, call('b', list(['second', 'pending'])).parts![0]!],
      },
      { role: 'user', parts: [answer('b', { output: 'ok' }).parts![0]!, answer('a', { error: 'x' }).parts![0]!] },
    ];
    expect(latestTodos(history)).toEqual([{ description: 'second', status: 'pending' }]);
  });
});

describe('todosSetBy', () => {
  const tool = (serverAlias: string): ToolRef => ({
    exposedName: 'write_todos',
    serverAlias,
    toolName: 'write_todos',
    description: '',
    inputSchema: {},
    readOnly: false,
    confirmsInCall: false,
    trusted: true,
    builtIn: true,
  });
  const ended = (status: string, args: unknown, t?: ToolRef) =>
    ({
      status,
      tool: t,
      request: { callId: 'c', name: 'write_todos', args, isClientInitiated: false, promptId: 'p' },
      startTime: 0,
      endTime: 1,
      response: { callId: 'c', responseParts: [], responseText: '' },
    }) as ToolCall;

  it("a successful call of the host's own tool sets the list", () => {
    expect(todosSetBy(ended('success', list(['a', 'blocked']), tool('@host')))).toEqual([
      { description: 'a', status: 'blocked' },
    ]);
  });

  it("another server's tool of the same name, or a failed call, sets nothing; a stored call goes by its name", () => {
    expect(todosSetBy(ended('success', list(['a', 'pending']), tool('crm')))).toBeUndefined();
    expect(todosSetBy(ended('error', list(['a', 'pending']), tool('@host')))).toBeUndefined();
    expect(todosSetBy(ended('success', list(['a', 'pending'])))).toEqual([{ description: 'a', status: 'pending' }]);
  });
});
