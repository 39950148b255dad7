import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The file's mode. Default: the mode of the file being replaced, else 0600 (these files are the user's). */
  mode?: number;
  /** Mode for folders created on the way (e.g. 0700 for a token store). */
  dirMode?: number;
}

/**
 * The host's one write-then-rename. The text goes to a fresh sibling temp file (`wx`: never an existing
 * file or a planted symlink), is fsynced, then renamed over the target, so a reader or a crash sees the old
 * file or the new one, never half of one; the folder is fsynced afterwards so the rename itself survives a
 * power cut. The mode is set with fchmod, so the umask cannot narrow a preserved mode nor leave a secret
 * wider than asked. A failed write removes its temp file and throws.
 */
export function writeFileAtomic(file: string, text: string | Uint8Array, opts: AtomicWriteOptions = {}): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true, ...(opts.dirMode === undefined ? {} : { mode: opts.dirMode }) });
  const mode = opts.mode ?? existingMode(file) ?? 0o600;
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', mode);
  try {
    try {
      fchmodSync(fd, mode);
      if (typeof text === 'string') writeSync(fd, text);
      else writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      // nothing left to clean
    }
    throw err;
  }
  syncDir(dir);
}

/**
 * The mode of the file being replaced, read without following a link: a planted link to a world-writable
 * file must not lend its target's mode to what we write (the rename replaces the link, not its target).
 */
function existingMode(file: string): number | undefined {
  try {
    const st = lstatSync(file);
    return st.isFile() ? st.mode & 0o777 : undefined;
  } catch {
    return undefined;
  }
}

/** Makes a rename durable. Best effort: some file systems refuse to fsync a folder, and the data is safe. */
function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // not supported here
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
