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

/** Whether a process still exists (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
