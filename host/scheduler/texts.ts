import { bareToolName, USER_DENIED_TEXT } from '../../protocol/tool-names.js';
/** Texts the model reads for calls that did not run. */
export const CANCELLED_BY_USER = USER_DENIED_TEXT;
export const CANCELLED_WAITING = 'User cancelled operation';
export const ABORTED = '[Operation Cancelled] User cancelled tool execution.';

export function notFoundText(name: string, candidates: string[]): string {
  const close = closestNames(name, candidates, 3);
  return close.length > 0
    ? `Tool "${name}" not found. Did you mean one of: ${close.map((c) => `"${c}"`).join(', ')}?`
    : `Tool "${name}" not found.`;
}

/**
 * Up to `n` names close to `name`: same bare tool name first, then by edit distance (within `limit`
 * edits; by default a third of the name, at least 3).
 */
export function closestNames(name: string, candidates: string[], n: number, limit?: number): string[] {
  const scored = candidates.map((c) => {
    const d =
      bareToolName(c) === bareToolName(name)
        ? 0
        : Math.min(distance(name, c), distance(bareToolName(name), bareToolName(c)) + 1);
    return { c, d };
  });
  const max = limit ?? Math.max(3, Math.floor(name.length / 3));
  return scored
    .filter((s) => s.d <= max)
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, n)
    .map((s) => s.c);
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The error type of a call the user rejected while the turn went on (an editor's reject). */
export const REJECTED = 'rejected';

/** What Gemini CLI's editor mode sends the model for a call the user rejected (the turn goes on). */
export function rejectedText(exposedName: string): string {
  return `Tool "${exposedName}" was canceled by the user.`;
}

/** How many AfterTool tail calls may replace one call in a row: a hook that always asks for one must not loop. */
export const MAX_TAIL_CALLS = 10;

export function tooManyTailsText(max: number, name: string): string {
  return `AfterTool hooks asked for more than ${max} tail calls in a row; the tail call to "${name}" was not made.`;
}
