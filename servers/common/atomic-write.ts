import { randomHex } from '../../protocol/lazy-require.js';
import { constants } from 'node:fs';
import { access, lstat, mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { errnoError, fdPathsWork } from './confined-fs.js';
import { relativeWithin } from '../../protocol/path-within.js';

/**
 * Writes a file so that a crash at any moment leaves the old or the new content, never a mix: the
 * bytes go to a temp file in the same directory (same filesystem), are fsynced, then renamed over
 * the target. Missing parent directories are created; an existing file keeps its mode.
 *
 * The directory is reached from `base` one component at a time through open descriptors, creating
 * what is missing and refusing symlinks, so a directory swapped for a symlink mid-call cannot move
 * the write (or the directories it creates) elsewhere; the temp file is created exclusively, without
 * following a symlink, in that verified directory and renamed only within it.
 */
export interface AtomicWriteOptions {
  /** A directory trusted as it is (a workspace root). Default: the nearest existing ancestor of the target. */
  base?: string;
}

const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** Our temp-file name for `target`: `.<name>.<pid>.<8 hex>.tmp` (startup cleanup matches exactly this). */
export const tempNameFor = (name: string): string => `.${name.slice(0, 200)}.${process.pid}.${randomHex(4)}.tmp`;
export const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** An open directory and the path it was reached by (for messages and the no-/proc fallback). */
interface Dir {
  fh: FileHandle;
  path: string;
}

const child = (dir: Dir, name: string): string =>
  fdPathsWork() ? `/proc/self/fd/${dir.fh.fd}/${name}` : join(dir.path, name);

/** Errors name the directory by its path, not by the descriptor path used to reach it. */
function relabel(err: unknown, dir: Dir): unknown {
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.message === 'string') e.message = e.message.split(`/proc/self/fd/${dir.fh.fd}`).join(dir.path);
  return err;
}

export async function atomicWrite(
  target: string,
  content: string | Buffer,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const dirPath = dirname(target);
  const base = opts.base ?? (await nearestExisting(dirPath));
  const rel = relativeWithin(base, dirPath);
  if (rel === undefined) throw errnoError('EINVAL', `'${target}' is not below '${base}'`);
  const dir = await openDirChain(base, rel === '' ? [] : rel.split(sep));
  try {
    await writeInDir(dir, basename(target), content);
  } catch (err) {
    throw relabel(err, dir);
  } finally {
    await dir.fh.close();
  }
}

/** Opens `base`, then each component below it: created when missing, never a symlink. */
export async function openDirChain(base: string, components: string[]): Promise<Dir> {
  let dir: Dir = { fh: await open(base, constants.O_RDONLY | O_DIRECTORY), path: base };
  try {
    for (const name of components) {
      const p = child(dir, name);
      await mkdir(p).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EEXIST') throw err;
      });
      // Without /proc the name is resolved again: at least refuse a symlink in its place.
      if (!fdPathsWork() && (await lstat(p)).isSymbolicLink())
        throw errnoError('ELOOP', `symbolic link in the way, open '${p}'`);
      const next = await open(p, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      await dir.fh.close();
      dir = { fh: next, path: join(dir.path, name) };
    }
    return dir;
  } catch (err) {
    relabel(err, dir);
    await dir.fh.close().catch(() => undefined);
    throw err;
  }
}

async function writeInDir(dir: Dir, name: string, content: string | Buffer): Promise<void> {
  const target = child(dir, name);
  let mode: number | undefined;
  try {
    const st = await lstat(target);
    if (st.isDirectory())
      throw errnoError('EISDIR', `illegal operation on a directory, open '${join(dir.path, name)}'`);
    // A symlink in the target's place is replaced, never followed.
    if (st.isFile()) {
      mode = st.mode & 0o7777;
      // rename() would replace a read-only file; refuse as a plain write would.
      await access(target, constants.W_OK);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const tmp = child(dir, tempNameFor(name));
  const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW, mode ?? 0o666);
  try {
    await fh.writeFile(content);
    await fh.sync();
    if (mode !== undefined) await fh.chmod(mode);
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  // Makes the rename itself durable; some filesystems refuse fsync on directories, which is fine.
  await dir.fh.sync().catch(() => undefined);
}

async function nearestExisting(dir: string): Promise<string> {
  for (let cur = dir; ; cur = dirname(cur)) {
    try {
      if ((await stat(cur)).isDirectory()) return cur;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(cur) === cur) throw err;
    }
    if (dirname(cur) === cur) return cur;
  }
}
