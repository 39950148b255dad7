import { availableParallelism } from 'node:os';

/**
 * Searches share the machine. Each search process (rg, git grep, grep) of one server process waits for a
 * slot (every HTTP session's server is given the same gate), at most one per core; rg then runs with one
 * thread while others search, or with its own default (a thread per core) when it is alone, so a lone
 * search is as fast as before. Without this, 32 clients' searches on 2 cores each started rg with its own
 * threads, and one search at p50 took 2.3 s where it takes ~20 ms alone.
 */
export interface SearchGate {
  /** Runs `start` in a slot; `threads` is how many threads it may use (undefined: its default). */
  run<T>(signal: AbortSignal, start: (threads: number | undefined) => Promise<T>): Promise<T>;
}

/**
 * The process's gate. Waiters queue in lanes, one per session's server (`lane()`), and the lanes take
 * turns: a client that starts twenty searches at once does not make another client's one search wait for
 * all twenty. Within a lane, first come first served. `run` on the gate itself uses a lane of its own.
 */
export interface SharedSearchGate extends SearchGate {
  lane(): SearchGate;
}

interface Waiter {
  go: () => void;
  signal: AbortSignal;
}

export function createSearchGate(slots = availableParallelism()): SharedSearchGate {
  let running = 0;
  let waiting = 0;
  /** Lanes with waiters, in the order they are served; each appears once. */
  const turns: Waiter[][] = [];
  // A slot is counted when it is handed over, not when the waiter resumes: otherwise one release would
  // hand every waiter a slot before any of them had counted itself.
  const next = (): void => {
    while (running < slots && turns.length) {
      const lane = turns.shift()!;
      const waiter = lane.shift()!;
      if (lane.length) turns.push(lane);
      waiting--;
      if (waiter.signal.aborted) continue;
      running++;
      waiter.go();
    }
  };
  const wait = (lane: Waiter[], signal: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const waiter = { signal, go: resolve };
      if (lane.push(waiter) === 1) turns.push(lane);
      waiting++;
      signal.addEventListener(
        'abort',
        () => {
          // Still waiting: it leaves the queue. Already given its slot: it runs, sees the abort and ends.
          const at = lane.indexOf(waiter);
          if (at < 0) return;
          lane.splice(at, 1);
          waiting--;
          if (lane.length === 0) turns.splice(turns.indexOf(lane), 1);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  const laneGate = (): SearchGate => {
    const lane: Waiter[] = [];
    return {
      async run(signal, start) {
        if (signal.aborted) throw signal.reason;
        if (running < slots && waiting === 0) running++;
        else await wait(lane, signal);
        const alone = running === 1 && waiting === 0;
        try {
          return await start(alone ? undefined : 1);
        } finally {
          running--;
          next();
        }
      },
    };
  };
  const own = laneGate();
  return { run: own.run, lane: laneGate };
}
