import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, chmod, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file so that a crash at any moment leaves the old or the new content, never a mix: the
 * bytes go to a temp file in the same directory (same filesystem), are fsynced, then renamed over
 * the target. Missing parent directories are created; an existing file keeps its mode.
 */
export async function atomicWrite(target: string, content: string | Buffer): Promise<void> {
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  let mode: number | undefined;
  try {
    const st = await stat(target);
    if (st.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${target}'`), { code: 'EISDIR' });
    mode = st.mode & 0o7777;
    // rename() would replace a read-only file; refuse as a plain write would.
    await access(target, constants.W_OK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const tmp = join(dir, `.${basename(target).slice(0, 200)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', mode ?? 0o666);
  try {
    await fh.writeFile(content);
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fh.close();
  try {
    if (mode !== undefined) await chmod(tmp, mode);
    await rename(tmp, target);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(dir);
}

/** Makes the rename itself durable; some filesystems refuse fsync on directories, which is fine. */
async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // best effort
  }
}
