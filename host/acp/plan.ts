import type * as acp from '@agentclientprotocol/sdk';
import type { Todo } from '../tools/write-todos.js';

/**
 * The model's task list (write_todos) as ACP's `plan` update, the whole list each time as ACP asks. ACP
 * knows pending, in progress and completed: a blocked task stays pending and says so; a cancelled one is
 * no longer part of the plan. Gemini CLI 0.61's editor mode sends no plan.
 */
export function planUpdate(todos: readonly Todo[]): acp.SessionUpdate {
  const entries: acp.PlanEntry[] = todos
    .filter((t) => t.status !== 'cancelled')
    .map((t) => ({
      content: t.status === 'blocked' ? `${t.description} (blocked)` : t.description,
      priority: 'medium',
      status: t.status === 'blocked' ? 'pending' : (t.status as acp.PlanEntryStatus),
    }));
  return { sessionUpdate: 'plan', entries };
}
