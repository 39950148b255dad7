import { createRequire } from 'node:module';

/**
 * Loads a Node built-in at its first use rather than at start-up, for built-ins only some calls need (the
 * worker of a huge glob, the child process of a grep, random temp names): each costs a starting process
 * 2–8 ms of CPU to load (worker_threads ~6 ms, child_process with net ~8 ms, crypto ~7 ms, 2 shared cores).
 */
export const lazyRequire = createRequire(import.meta.url);

/** `bytes` random bytes as hex, loading crypto on first use. */
export function randomHex(bytes: number): string {
  const { randomBytes } = lazyRequire('node:crypto') as typeof import('node:crypto');
  return randomBytes(bytes).toString('hex');
}
