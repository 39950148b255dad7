import { realpathSync } from 'node:fs';
import { isWithin } from '../../protocol/path-within.js';

/**
 * Whether a path stays inside a folder someone else filled (an extension): by its text, and by its real
 * path once every link is followed. A third party's folder may hold a link to `~/.ssh` or to `/`; what
 * we read from it on its behalf, or show to the model, must be its own.
 */

export { isWithin } from '../../protocol/path-within.js';

/** The real path of `p`, or undefined when it does not resolve (missing, a loop, a dangling link). */
export function realPathOf(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Where `p` really leads when that is outside `root`'s real path (the text for a notice), or undefined
 * when it stays inside. A path that does not resolve leads nowhere and is reported as such.
 */
export function leadsOutside(root: string, p: string): string | undefined {
  const real = realPathOf(p);
  if (real === undefined) return 'nowhere (it does not resolve)';
  return isWithin(realPathOf(root) ?? root, real) ? undefined : real;
}
