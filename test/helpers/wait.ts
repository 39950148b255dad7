import { existsSync, readFileSync } from 'node:fs';
import { vi } from 'vitest';

/**
 * The one polling wait of the suite: vitest's `vi.waitFor` with a condition and a name for the failure.
 * Generous by default, because the machine running the suite is shared and often loaded.
 */
export function waitFor(
  cond: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 30_000,
  /** How often to look: a costly look (a tmux capture is a process) asks less often. */
  intervalMs = 25,
): Promise<void> {
  return vi.waitFor(
    async () => {
      if (!(await cond())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: intervalMs },
  );
}

/**
 * Whether a process still runs (signal 0 checks without signalling). A zombie has ended: an orphan's end
 * waits for whoever adopts it to reap it, which in a container may be never.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    // No /proc (not Linux), or it ended since the signal.
    return !existsSync('/proc/self');
  }
}
