import { kMaxLength } from 'node:buffer';
import { constants, existsSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { Descriptor } from './descriptor.js';

/**
 * Use-time confinement. A path checked by the guard can change before it is used (a directory swapped for
 * a symlink to elsewhere), so the checked string is never trusted on its own: files are opened first and
 * the opened descriptor's real location is what gets judged, and directories are walked one component at
 * a time through descriptors (`/proc/self/fd/N/<name>` names a child of exactly that open directory, the
 * way openat does), refusing symlinks on the way.
 */

const PROC_FD = existsSync('/proc/self/fd');
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

export const errnoError = (code: string, message: string): NodeJS.ErrnoException =>
  Object.assign(new Error(`${code}: ${message}`), { code });

/** Code of the error thrown when an opened file turned out to lie somewhere it may not. */
export const ESCAPED = 'ESCAPED';

export const isEscape = (err: unknown): boolean => {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === ESCAPED || code === 'ELOOP';
};

/**
 * Where an open descriptor really is, or undefined when that cannot be told here (no /proc). The answer
 * is the path of the very object the descriptor holds, whatever happened to the name used to open it.
 */
export function descriptorPath(fd: number): string | undefined {
  if (!PROC_FD) return undefined;
  try {
    const target = readlinkSync(`/proc/self/fd/${fd}`);
    // An unlinked file reads as "<path> (deleted)": it can no longer be anywhere.
    return target.startsWith('/') && !target.endsWith(' (deleted)') ? target : undefined;
  } catch {
    return undefined;
  }
}

/** Path that names a child of an open directory without resolving the directory's name again. */
export const childOf = (dir: Descriptor, name: string): string => `/proc/self/fd/${dir.fd}/${name}`;

export const fdPathsWork = (): boolean => PROC_FD;

/**
 * The real location of an open descriptor: /proc where it exists; elsewhere the path's realpath, accepted
 * only when it still names the same inode the descriptor holds.
 */
async function locate(fh: Descriptor, path: string): Promise<string | undefined> {
  const viaProc = descriptorPath(fh.fd);
  if (viaProc !== undefined || PROC_FD) return viaProc;
  try {
    const real = realpathSync(path);
    const [a, b] = [await fh.stat(), statSync(real)];
    return a.dev === b.dev && a.ino === b.ino ? real : undefined;
  } catch {
    return undefined;
  }
}

export interface OpenCheckedOptions {
  /** Accepts the descriptor's real path. */
  allowed: (real: string) => boolean;
  /** Open a directory instead of a file. */
  directory?: boolean;
}

/**
 * Opens `path` read-only without following a final symlink (O_NONBLOCK: a FIFO must not block the open),
 * then judges where the descriptor really is. Throws ELOOP for a final symlink and ESCAPED when the
 * opened object lies outside what `allowed` accepts; other errors are the open's own.
 */
export async function openChecked(path: string, opts: OpenCheckedOptions): Promise<Descriptor> {
  const flags = constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK | (opts.directory ? O_DIRECTORY : 0);
  let fh: Descriptor;
  try {
    fh = await Descriptor.open(path, flags);
  } catch (err) {
    // O_NOFOLLOW with O_DIRECTORY reports a final symlink as ENOTDIR.
    if (opts.directory && (err as NodeJS.ErrnoException).code === 'ENOTDIR' && (await isSymlink(path))) {
      throw errnoError('ELOOP', `too many symbolic links encountered, open '${path}'`);
    }
    throw err;
  }
  const real = await locate(fh, path);
  if (real === undefined || !opts.allowed(real)) {
    await fh.close();
    throw errnoError(ESCAPED, `'${path}' resolves outside the allowed workspace directories`);
  }
  return fh;
}

async function isSymlink(path: string): Promise<boolean> {
  return lstat(path).then(
    (s) => s.isSymbolicLink(),
    () => false,
  );
}

/**
 * Reads the whole of an open file handle, refusing anything that is not a regular file. `st` is the
 * handle's own stat when the caller already took it: each thread-pool round trip spared is CPU spared
 * on a server answering many clients.
 */
export async function readRegularHandle(fh: Descriptor, path: string, st?: Stats): Promise<Buffer> {
  const stats = st ?? (await fh.stat());
  if (stats.isDirectory()) throw errnoError('EISDIR', 'illegal operation on a directory, read');
  if (!stats.isFile()) throw errnoError('EINVAL', `not a regular file, read '${path}'`);
  return readToSize(fh, stats.size);
}

/**
 * The file's bytes up to the size its stat gave, as `readFile` reads a regular file, without the
 * second stat readFile takes: usually one read. A file that reports no size is read to its end by
 * readFile, and one too large for a buffer gets readFile's own error.
 */
async function readToSize(fh: Descriptor, size: number): Promise<Buffer> {
  if (size === 0 || size > kMaxLength) return fh.readFile();
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const bytesRead = await fh.read(buf, got, size - got, got);
    // The file shrank since its stat.
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === size ? buf : buf.subarray(0, got);
}

/** openChecked + readRegularHandle: the content of a file that really lies where `allowed` says it may. */
export async function readChecked(path: string, allowed: (real: string) => boolean): Promise<Buffer> {
  const fh = await openChecked(path, { allowed });
  try {
    return await readRegularHandle(fh, path);
  } finally {
    await fh.close();
  }
}
