import { relative, sep } from 'node:path';
import type { WorkspaceRoots } from '../../common/roots.js';

export const toPosix = (p: string): string => (sep === '/' ? p : p.split(sep).join('/'));

/** `<rel>` of the contract: relative to the primary root, `/`-separated. */
export function displayRel(abs: string, roots: WorkspaceRoots): string {
  const primary = roots.primary;
  return primary ? toPosix(relative(primary, abs)) || '.' : abs;
}

/** The root containing `real` and the path below it (`/`-separated), if any. */
export function rootOf(real: string, roots: WorkspaceRoots): { root: string; rel: string } | undefined {
  for (const root of roots.list) {
    const rel = relative(root, real);
    if (rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !/^[A-Za-z]:/.test(rel))) {
      return { root, rel: toPosix(rel) };
    }
  }
  return undefined;
}
