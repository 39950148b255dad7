import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';

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

/**
 * realpath of the longest existing prefix with the missing tail appended: the real path a write would
 * land on, for `isWithin`. Shared by the servers' path guard and the host's plan-mode check.
 */
export function realPathOf(abs: string): string {
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      // The system's realpath: one call, where Node's own walks every component in JavaScript (an lstat
      // each), on every tool call of every client.
      const real = realpathSync.native(cur);
      return tail.length ? join(real, ...tail.reverse()) : real;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A dangling symlink or a loop cannot be trusted to stay inside: resolve it as far as we can.
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP') throw err;
      const parent = dirname(cur);
      if (parent === cur) return abs;
      tail.push(basename(cur));
      cur = parent;
    }
  }
}
