import { closeSync, constants, openSync, readdir, realpathSync, type Dirent } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { descriptorPath, errnoError, fdPathsWork } from '../../common/confined-fs.js';
import { isWithin } from '../../common/path-guard.js';

const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

type ReaddirCallback = (err: NodeJS.ErrnoException | null, entries?: Dirent[] | string[]) => void;

/**
 * The readdir fast-glob walks with. fast-glob reads every directory a pattern names (`link/*`, `up/../x/*`)
 * by path, and a path may lead through a symlink or be swapped for one while the walk runs. Each
 * directory is therefore opened without following a final symlink, and listed only when the descriptor
 * really is that path (a real path, no symlink anywhere on the way) and `inScope`; otherwise the walk
 * sees an error and skips it. The listing is read from the descriptor itself.
 */
export function confinedReaddir(inScope: (real: string) => boolean) {
  return (path: string, optsOrCb: unknown, maybeCb?: ReaddirCallback): void => {
    const cb = (typeof optsOrCb === 'function' ? optsOrCb : maybeCb) as ReaddirCallback;
    const withFileTypes =
      typeof optsOrCb === 'object' &&
      optsOrCb !== null &&
      (optsOrCb as { withFileTypes?: boolean }).withFileTypes === true;
    const wanted = resolve(path);
    let fd: number;
    try {
      fd = openSync(wanted, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    } catch (err) {
      process.nextTick(cb, err as NodeJS.ErrnoException);
      return;
    }
    const real = fdPathsWork() ? descriptorPath(fd) : realOf(wanted);
    if (real !== wanted || !inScope(real)) {
      closeSync(fd);
      const escaped = errnoError('ESCAPED', `'${wanted}' is not a real directory inside the search scope`);
      process.nextTick(cb, escaped);
      return;
    }
    const done = (err: NodeJS.ErrnoException | null, entries?: Dirent[] | string[]) => {
      closeSync(fd);
      cb(err, entries);
    };
    const from = fdPathsWork() ? `/proc/self/fd/${fd}` : wanted;
    if (withFileTypes) readdir(from, { withFileTypes: true }, done);
    else readdir(from, done);
  };
}

function realOf(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Whether a result's directory is a real directory (no symlink on the way) inside `scope`. fast-glob
 * checks patterns without glob syntax (`link/a.txt`) by stat, which follows symlinks: such results are
 * judged here, once per directory.
 */
export function realDirChecker(scope: string): (file: string) => boolean {
  const verdicts = new Map<string, boolean>();
  return (file) => {
    const dir = dirname(file);
    let ok = verdicts.get(dir);
    if (ok === undefined) {
      const real = realOf(dir);
      ok = real === dir && isWithin(scope, real);
      verdicts.set(dir, ok);
    }
    return ok;
  };
}
