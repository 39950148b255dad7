import { isAbsolute, relative, sep } from 'node:path';

/**
 * The one containment test of the host and the servers: `p` is `root` itself or below it. Compared as
 * path segments, never as string prefixes (`/work-evil` is not inside `/work`), and by the text given:
 * a caller that must not follow a planted link passes real paths (realpath of both) — the test itself
 * never touches the file system.
 */
export function isWithin(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** `p` relative to `root` when it is inside (`''` for the root itself), else undefined. */
export function relativeWithin(root: string, p: string): string | undefined {
  return isWithin(root, p) ? relative(root, p) : undefined;
}
