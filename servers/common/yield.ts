import { setImmediate } from 'node:timers/promises';

/**
 * Lets pending I/O (pings, other calls) run between the steps of a long synchronous job, such as the
 * phases of an edit on a multi-megabyte file, so no single step holds the server for long.
 */
export const yieldToLoop = (): Promise<void> => setImmediate();
