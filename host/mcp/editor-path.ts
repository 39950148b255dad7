import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isWithin } from '../../protocol/path-within.js';

/**
 * Why the host will not hand this path to the editor, or undefined when it may: a built-in server asks for
 * files by name, and the editor opens whatever the name points at now, so the host checks the real path
 * itself (symlinks followed through the longest existing prefix) against the session's roots.
 */
export function editorPathRefusal(path: string, roots: readonly string[]): string | undefined {
  if (!isAbsolute(path)) return `The editor's files are asked for by absolute path, not "${path}".`;
  const real = realOf(resolve(path));
  if (real !== undefined && roots.some((r) => isWithin(realOf(resolve(r)) ?? r, real))) return undefined;
  return `Path is outside the workspace roots (${roots.join(', ')}): ${path}`;
}

function realOf(abs: string): string | undefined {
  const tail: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      return join(realpathSync(cur), ...tail.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A loop or an unreadable component cannot be shown to stay inside.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return undefined;
      const parent = dirname(cur);
      if (parent === cur) return abs;
      tail.push(basename(cur));
      cur = parent;
    }
  }
}
