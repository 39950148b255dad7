import type { Dirent } from 'node:fs';
import { lstat, readdir, unlink } from 'node:fs/promises';
import type { Descriptor } from '../../common/descriptor.js';
import { join } from 'node:path';
import { TEMP_NAME } from '../../common/atomic-write.js';
import { childOf, fdPathsWork, openChecked } from '../../common/confined-fs.js';
import type { Logger } from '../../common/logger.js';
import { isWithin } from '../../common/path-guard.js';
import { yieldToLoop } from '../../common/yield.js';
import { CORE_EXCLUDE_DIRS } from './ignore-rules.js';

/** Entries looked at per root at most: a huge tree is cleaned partly rather than walked for long. */
const MAX_ENTRIES = 200_000;

/**
 * Removes the temp files a killed write left behind. Only names of exactly our pattern
 * (`.<name>.<pid>.<8 hex>.tmp`) whose writer process is gone, only regular files, only inside the root:
 * directories are entered through checked descriptors, symlinks are never followed, and the core
 * excludes (node_modules, .git, ...) are not entered since no write of ours goes there.
 */
export async function cleanStaleTemps(root: string, log: Logger): Promise<number> {
  let removed = 0;
  let seen = 0;
  const pending = [root];
  let dirs = 0;
  while (pending.length > 0 && seen < MAX_ENTRIES) {
    const dir = pending.pop() as string;
    let fh: Descriptor;
    try {
      fh = await openChecked(dir, { directory: true, allowed: (real) => real === dir && isWithin(root, real) });
    } catch {
      continue;
    }
    try {
      const entries: Dirent[] = await readdir(fdPathsWork() ? `/proc/self/fd/${fh.fd}` : dir, { withFileTypes: true });
      for (const e of entries) {
        seen++;
        if (e.isDirectory()) {
          if (!CORE_EXCLUDE_DIRS.includes(e.name)) pending.push(join(dir, e.name));
        } else if (e.isFile() && (await removeIfStale(fh, dir, e.name))) {
          removed++;
          log.debug(`removed stale temp file ${join(dir, e.name)}`);
        }
      }
    } catch {
      // unreadable directory: nothing of ours can be cleaned there
    } finally {
      await fh.close();
    }
    // Calls keep being answered while a large tree is walked.
    if (++dirs % 50 === 0) await yieldToLoop();
  }
  return removed;
}

async function removeIfStale(dir: Descriptor, dirPath: string, name: string): Promise<boolean> {
  const m = TEMP_NAME.exec(name);
  if (!m || processAlive(Number(m[1]))) return false;
  const path = fdPathsWork() ? childOf(dir, name) : join(dirPath, name);
  try {
    if (!(await lstat(path)).isFile()) return false;
    await unlink(path);
    return true;
  } catch {
    return false;
  }
}

function processAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
