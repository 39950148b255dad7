import { availableParallelism } from 'node:os';

/**
 * Searches share the machine. Each search process (rg, git grep, grep) of one server process waits for a
 * slot (every HTTP session's server is given the same gate), at most one per core, first come first served; rg then runs with one thread while others search, or with
 * its own default (a thread per core) when it is alone, so a lone search is as fast as before. Without
 * this, 32 clients' searches on 2 cores each started rg with its own threads, and one search at p50 took
 * 2.3 s where it takes ~20 ms alone.
 */
export interface SearchGate {
  /** Runs `start` in a slot; `threads` is how many threads it may use (undefined: its default). */
  run<T>(signal: AbortSignal, start: (threads: number | undefined) => Promise<T>): Promise<T>;
}

export function createSearchGate(slots = availableParallelism()): SearchGate {
  let running = 0;
  const queue: { go: () => void; signal: AbortSignal }[] = [];
  // A slot is counted when it is handed over, not when the waiter resumes: otherwise one release would
  // hand every waiter a slot before any of them had counted itself.
  const next = (): void => {
    while (running < slots && queue.length) {
      const waiter = queue.shift()!;
      if (waiter.signal.aborted) continue;
      running++;
      waiter.go();
    }
  };
  const wait = (signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const waiter = { signal, go: resolve };
      queue.push(waiter);
      signal.addEventListener(
        'abort',
        () => {
          // Still waiting: it leaves the queue. Already given its slot: it runs, sees the abort and ends.
          const at = queue.indexOf(waiter);
          if (at < 0) return;
          queue.splice(at, 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  return {
    async run(signal, start) {
      if (signal.aborted) throw signal.reason;
      if (running < slots && queue.length === 0) running++;
      else await wait(signal);
      const alone = running === 1 && queue.length === 0;
      try {
        return await start(alone ? undefined : 1);
      } finally {
        running--;
        next();
      }
    },
  };
}
