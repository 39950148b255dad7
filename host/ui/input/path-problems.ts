import { describePathProblems, findPathProblems } from '../../core/at-path-check.js';
import type { UiRuntime } from '../backend-types.js';
import type { LineEditor } from './line-editor.js';

/**
 * `@path` references that exist but cannot be read (outside the workspace, too big): says why, puts the
 * prompt back in the input box so the user can fix it, and tells the caller to send nothing.
 */
export function refusePathProblems(
  text: string,
  rt: UiRuntime | undefined,
  editor: LineEditor,
  error: (message: string) => void,
): boolean {
  if (!rt || !/(^|\s)@\S/.test(text)) return false;
  const aliases = rt.manager.states().map((s) => s.alias);
  const problems = findPathProblems(text, rt.roots, aliases, rt.projectTempDir);
  if (!problems.length) return false;
  error(`${describePathProblems(problems)}\nThe prompt is back in the input box: fix it and press Enter.`);
  editor.set(text);
  return true;
}
