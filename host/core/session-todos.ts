import type { Content } from '@google/genai';
import { type Todo, todosOf, WRITE_TODOS } from '../tools/write-todos.js';
import type { ToolCall } from '../scheduler/types.js';
import { HOST_TOOLS_ALIAS } from '../tools/tool-search.js';
import { CallPairing } from './call-pairing.js';

/** The list as the conversation left it: the last write_todos call that was answered without an error. */
export function latestTodos(history: readonly Content[]): Todo[] | undefined {
  const pairing = new CallPairing<Record<string, unknown> | undefined>();
  let latest: Todo[] | undefined;
  for (const content of history) {
    for (const part of content.parts ?? []) {
      const fc = part.functionCall;
      if (fc?.name === WRITE_TODOS) pairing.call(fc, fc.args);
      const fr = part.functionResponse;
      if (fr?.name !== WRITE_TODOS) continue;
      const args = pairing.response(fr);
      const failed = !fr.response || 'error' in fr.response;
      const todos = failed ? undefined : todosOf(args);
      if (todos) latest = todos;
    }
  }
  return latest;
}

/**
 * The list an ended call set: a successful write_todos of the host's (a call from a stored history names
 * no tool, and then its name decides). Undefined for every other call.
 */
export function todosSetBy(call: ToolCall): Todo[] | undefined {
  if (call.status !== 'success') return undefined;
  const ours = call.tool
    ? call.tool.serverAlias === HOST_TOOLS_ALIAS && call.tool.toolName === WRITE_TODOS
    : call.request.name === WRITE_TODOS;
  return ours ? todosOf(call.request.args) : undefined;
}
