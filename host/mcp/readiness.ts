import type { Slot } from './server-slot.js';

/** A connection attempt reduced to "it ended", whichever way: readiness waits on it, never fails by it. */
export const settled = (attempt: Promise<unknown>): Promise<void> =>
  attempt.then(
    () => undefined,
    () => undefined,
  );

/** Resolves when `work` does or after `ms` (when given), whichever is first. */
export async function withinMs(work: Promise<unknown>, ms: number | undefined): Promise<void> {
  if (ms === undefined) {
    await work;
    return;
  }
  let t: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((r) => (t = setTimeout(r, Math.max(0, ms))))]);
  clearTimeout(t);
}

/**
 * Every built-in server's first attempt has ended, and every other server's has too or `graceEndsAt` has
 * passed: a slow third-party server does not hold the session.
 */
export async function whenSessionReady(slots: Slot[], graceEndsAt: number): Promise<void> {
  const builtIn = Promise.all(slots.filter((s) => s.config.builtIn).map((s) => s.firstAttempt));
  const others = Promise.all(slots.filter((s) => !s.config.builtIn).map((s) => s.firstAttempt));
  await Promise.all([builtIn, withinMs(others, graceEndsAt - Date.now())]);
}
