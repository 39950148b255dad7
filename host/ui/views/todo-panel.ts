import { type Todo, todoProgress } from '../../tools/write-todos.js';
import { safeText } from '../../safe-text.js';
import type { Palette } from '../text/palette.js';

/** The most rows the panel takes: the task in progress and its neighbours stay in view. */
const MAX_ROWS = 6;

const MARK: Record<Todo['status'], string> = {
  completed: '✓',
  in_progress: '»',
  pending: '○',
  cancelled: '✗',
  blocked: '!',
};

/** Whether the list still has work to show: once every task is done or cancelled the panel goes away. */
export function todosOpen(todos: readonly Todo[] | undefined): todos is Todo[] {
  return !!todos?.some((t) => t.status !== 'completed' && t.status !== 'cancelled');
}

/**
 * The model's task list (write_todos) as a compact panel above the activity line, redrawn in place as the
 * model updates it: a title with the progress, then one row per task (done, in progress, pending, …), cut
 * to the width; a long list shows the rows around the task in progress.
 */
export function todoPanel(todos: readonly Todo[], width: number, p: Palette): string[] {
  const { done, total } = todoProgress(todos);
  const title = p.bold(`Todo ${done}/${total}`);
  const at = Math.max(
    0,
    todos.findIndex((t) => t.status === 'in_progress'),
  );
  const start = Math.max(0, Math.min(at - 1, todos.length - MAX_ROWS));
  const shown = todos.slice(start, start + MAX_ROWS);
  const room = Math.max(4, width - 4);
  const rows = shown.map((t) => {
    const text = safeText(t.description).replace(/\s+/g, ' ');
    const cut = text.length > room ? `${text.slice(0, room - 1)}…` : text;
    const row = `${MARK[t.status]} ${cut}`;
    if (t.status === 'completed') return `  ${p.green(MARK[t.status])} ${p.gray(cut)}`;
    if (t.status === 'in_progress') return `  ${p.accent(p.bold(row))}`;
    if (t.status === 'cancelled') return `  ${p.gray(p.strike(row))}`;
    if (t.status === 'blocked') return `  ${p.yellow(row)}`;
    return `  ${row}`;
  });
  const more = todos.length - shown.length;
  return [more > 0 ? `${title} ${p.gray(`(${more} more)`)}` : title, ...rows];
}
