import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import { hostToolEntry, type RegisteredTool } from './registered-tool.js';
import { WRITE_TODOS_DESCRIPTION } from './write-todos-description.js';

/**
 * Gemini CLI 0.61's `write_todos`: the model replaces the session's task list. It is a host tool because
 * the list is the host's own session state (the chat's panel, headless output, an editor's plan). The list
 * is what the last accepted call wrote, so the conversation itself is its record: a resumed session, an
 * editor's session/load and `/clear` all read it from the history (`host/core/session-todos.ts`).
 */
export const WRITE_TODOS = 'write_todos';

export const TODO_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled', 'blocked'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface Todo {
  description: string;
  status: TodoStatus;
}

export function writeTodosEntry(): RegisteredTool {
  return hostToolEntry(WRITE_TODOS, 'WriteTodos', WRITE_TODOS_DESCRIPTION, {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        description: 'The complete list of todo items. This will replace the existing list.',
        items: {
          type: 'object',
          description: 'A single todo item.',
          properties: {
            description: { type: 'string', description: 'The description of the task.' },
            status: { type: 'string', description: 'The current status of the task.', enum: [...TODO_STATUSES] },
          },
          required: ['description', 'status'],
          additionalProperties: false,
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  });
}

/** 0.61's checks, with its words; undefined when the list is valid. */
export function invalidTodos(args: Record<string, unknown> | undefined): string | undefined {
  const todos = args?.todos;
  if (!args || !Array.isArray(todos)) return '`todos` parameter must be an array';
  for (const todo of todos) {
    if (typeof todo !== 'object' || todo === null) return 'Each todo item must be an object';
    const t = todo as Record<string, unknown>;
    if (typeof t.description !== 'string' || !t.description.trim())
      return 'Each todo must have a non-empty description string';
    if (!TODO_STATUSES.includes(t.status as TodoStatus))
      return `Each todo must have a valid status (${TODO_STATUSES.join(', ')})`;
  }
  if (todos.filter((t) => (t as Todo).status === 'in_progress').length > 1)
    return 'Invalid parameters: Only one task can be "in_progress" at a time.';
  return undefined;
}

/** The list a call's arguments set, or undefined when 0.61 would refuse them. */
export function todosOf(args: Record<string, unknown> | undefined): Todo[] | undefined {
  if (invalidTodos(args)) return undefined;
  return (args!.todos as Todo[]).map((t) => ({ description: t.description, status: t.status }));
}

/** Answers as 0.61 does: the list for the model, numbered with each status; the card says how many. */
export function writeTodos(args: Record<string, unknown>): CallToolResult {
  const bad = invalidTodos(args);
  if (bad) {
    return {
      content: [{ type: 'text', text: bad }],
      isError: true,
      _meta: { [META.errorType]: 'invalid_tool_params' },
    };
  }
  const todos = todosOf(args)!;
  const list = todos.map((t, i) => `${i + 1}. [${t.status}] ${t.description}`).join('\n');
  const text = todos.length
    ? `Successfully updated the todo list. The current list is now:\n${list}`
    : 'Successfully cleared the todo list.';
  const display = todos.length ? `Set ${todos.length} todo(s)` : 'Cleared todo list';
  return { content: [{ type: 'text', text }], _meta: { [META.display]: display } };
}

/** Progress as the footer and /stats show it: completed out of the tasks not cancelled. */
export function todoProgress(todos: readonly Todo[]): { done: number; total: number } {
  const live = todos.filter((t) => t.status !== 'cancelled');
  return { done: live.filter((t) => t.status === 'completed').length, total: live.length };
}
