import { mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { hostname } from 'node:os';

/** A holder that has not finished within this time is presumed dead (a write takes milliseconds). */
const STALE_MS = 10_000;
const GIVE_UP_MS = 30_000;

/**
 * Runs `fn` while holding `<file>.lock`, created with O_EXCL so only one process at a time gets
 * it. A lock left behind by a crashed process is taken over when its owner is gone or it is stale.
 */
export async function withFileLock<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${file}.lock`;
  await mkdir(dirname(lock), { recursive: true });
  const started = Date.now();
  let delay = 5;
  for (;;) {
    try {
      const handle = await open(lock, 'wx');
      await handle.writeFile(JSON.stringify({ pid: process.pid, host: hostname(), time: Date.now() }));
      await handle.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await isAbandoned(lock)) {
        await unlink(lock).catch(() => undefined);
        continue;
      }
      if (Date.now() - started > GIVE_UP_MS) throw new Error(`timed out waiting for the lock file ${lock}`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 100);
    }
  }
  try {
    return await fn();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}

async function isAbandoned(lock: string): Promise<boolean> {
  try {
    const [info, raw] = await Promise.all([stat(lock), readFile(lock, 'utf8')]);
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    const owner = JSON.parse(raw) as { pid?: number; host?: string };
    if (owner.host === hostname() && typeof owner.pid === 'number' && owner.pid !== process.pid) {
      try {
        process.kill(owner.pid, 0);
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ESRCH';
      }
    }
    return false;
  } catch {
    // Vanished meanwhile, or written but not yet filled: try again shortly.
    return false;
  }
}
