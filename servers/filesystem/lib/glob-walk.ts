import { closeSync, constants, type Dirent, openSync, readdirSync } from 'node:fs';
import { sep } from 'node:path';
import micromatch from 'micromatch';
import { descriptorPath, fdPathsWork } from '../../common/confined-fs.js';

const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

export interface GlobWalkOptions {
  nocase: boolean;
  /** Directory names never entered (node_modules, .git, …), compared as `nocase` says. */
  excludeDirs: readonly string[];
  /** Whether a real directory path is inside the search scope. */
  inScope: (real: string) => boolean;
  /** Called after each directory's files were added to `found` (the array `walkGlob` returns). */
  onDir?: (found: readonly string[]) => void;
  /** List absolute paths (`dir` joined with the relative one) rather than relative POSIX paths. */
  absolute?: boolean;
}

/**
 * The files under `dir` that `pattern` matches, as relative POSIX paths, listed the way fast-glob lists them
 * with `dot`, `onlyFiles` and no symlink following (micromatch decides, per brace alternative, as in
 * fast-glob) but in one synchronous walk: reading 50,000 names this way costs a fraction of fast-glob's
 * per-entry work. Every directory is opened without following a symlink and listed from the descriptor
 * only when that descriptor is that very path and in scope, so a directory swapped for a symlink mid-walk
 * is skipped. Undefined for patterns it does not take (absolute, `./` or `..` segments, escapes): those go
 * to fast-glob.
 */
export function walkGlob(dir: string, pattern: string, o: GlobWalkOptions): string[] | undefined {
  if (!fdPathsWork() || pattern.startsWith('/') || pattern.startsWith('./') || pattern.includes('\\')) return undefined;
  if (pattern.split('/').some((s) => s === '..' || s === '.')) return undefined;
  const alternatives = micromatch.braces(pattern, { expand: true });
  const mm = { dot: true, nocase: o.nocase, posix: true };
  const res = alternatives.map((p) => micromatch.makeRe(p, mm));
  // A file's name must match some alternative's last segment before its whole path is built and tested
  // (most names in a big tree fail there); a last segment with `**` can span directories: no shortcut.
  const lastSegments = alternatives.map((p) => p.slice(p.lastIndexOf('/') + 1));
  const names = lastSegments.some((l) => l.includes('**'))
    ? undefined
    : lastSegments.map((l) => micromatch.makeRe(l, mm));
  // Only `**/*.ts`-like alternatives, or only `*.ts`-like ones (the walk then stays at the top): a listed
  // name that matches a last segment matches the whole pattern (with `dot`, `**` takes any folders, and
  // the walk never lists `.` or `..`), so no path is built to test. Mixed, `*.ts` would match deeper.
  const byName =
    names !== undefined &&
    (alternatives.every((p) => /^\*\*\/[^/]+$/.test(p)) || alternatives.every((p) => !p.includes('/')));
  const deepest = alternatives.some((p) => p.includes('**'))
    ? Number.POSITIVE_INFINITY
    : Math.max(...alternatives.map((p) => p.split('/').length));
  const base = staticSegments(pattern);
  const excluded = new Set(o.excludeDirs.map((d) => (o.nocase ? d.toLowerCase() : d)));
  const out: string[] = [];
  const walk = (abs: string, rel: string, depth: number): void => {
    const entries = listConfined(abs, o.inScope);
    if (!entries) return;
    const absPrefix = abs === sep ? sep : `${abs}${sep}`;
    for (const e of entries) {
      if (e.isDirectory()) {
        if (depth + 1 < deepest && !excluded.has(o.nocase ? e.name.toLowerCase() : e.name))
          walk(`${absPrefix}${e.name}`, rel ? `${rel}/${e.name}` : e.name, depth + 1);
      } else if (e.isFile() && (!names || names.some((re) => re.test(e.name)))) {
        if (byName) {
          out.push(o.absolute ? `${absPrefix}${e.name}` : rel ? `${rel}/${e.name}` : e.name);
          continue;
        }
        const childRel = rel ? `${rel}/${e.name}` : e.name;
        if (res.some((re) => re.test(childRel))) out.push(o.absolute ? `${absPrefix}${e.name}` : childRel);
      }
    }
    o.onDir?.(out);
  };
  if (base.some((s) => excluded.has(o.nocase ? s.toLowerCase() : s))) return out;
  walk(base.length ? `${dir === sep ? '' : dir}${sep}${base.join(sep)}` : dir, base.join('/'), base.length);
  return out;
}

/** The pattern's leading directory segments free of glob syntax (where the walk can start). */
function staticSegments(pattern: string): string[] {
  const fixed: string[] = [];
  for (const seg of pattern.split('/').slice(0, -1)) {
    if (/[*?[\]{}()!+@]/.test(seg)) break;
    fixed.push(seg);
  }
  return fixed;
}

function listConfined(path: string, inScope: (real: string) => boolean): Dirent[] | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const real = descriptorPath(fd);
    if (real !== path || !inScope(real)) return undefined;
    return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
