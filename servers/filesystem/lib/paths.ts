import { relative, sep } from 'node:path';
import { isWithin } from '../../common/path-guard.js';
import type { WorkspaceRoots } from '../../common/roots.js';

export const toPosix = (p: string): string => (sep === '/' ? p : p.split(sep).join('/'));

/** `<rel>` of the contract: relative to the primary root, `/`-separated. */
export function displayRel(abs: string, roots: WorkspaceRoots): string {
  const primary = roots.primary;
  return primary ? toPosix(relative(primary, abs)) || '.' : abs;
}

/** The root containing `real` and the path below it (`/`-separated), if any. */
export function rootOf(real: string, roots: WorkspaceRoots): { root: string; rel: string } | undefined {
  const root = roots.list.find((r) => isWithin(r, real));
  return root === undefined ? undefined : { root, rel: toPosix(relative(root, real)) };
}
