import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { lazyRequire } from '../../../protocol/lazy-require.js';

/**
 * From this many files on, part of them are stat'ed on a worker thread while this thread stats the rest.
 * Below it the worker's round trip (and its ~10 MB, paid once) is not worth it: small globs, such as an
 * agent session's usual ones, never start it.
 */
export const PARALLEL_FROM = 4096;

// CommonJS source for `new Worker(…, { eval: true })`: the bundle has no separate file to point a worker at.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
parentPort.on('message', ({ id, files }) => {
  const out = new Float64Array(files.length);
  for (let i = 0; i < files.length; i++) out[i] = statSync(files[i], { throwIfNoEntry: false })?.mtimeMs ?? 0;
  parentPort.postMessage({ id, out }, [out.buffer]);
});
`;

/** Reads files' mtimes for the glob tool's recency ordering; owned by one server instance. */
export interface MtimeReader {
  /**
   * Starts reading `files[from..to)` on the worker while the caller goes on (a walk still listing). Only
   * a later `read` of that same, append-only array uses the answer; ranges must be given in order.
   */
  prefetch(files: readonly string[], from: number, to: number): void;
  /** Each file's mtime in ms, 0 for a file that no longer exists (it then sorts with the old files). */
  read(files: readonly string[]): Promise<Float64Array>;
  /** Ends the worker, if one was started; later reads stat on the calling thread. */
  close(): Promise<void>;
}

interface Range {
  from: number;
  to: number;
  answer: Promise<Float64Array | undefined>;
}

function statInto(files: readonly string[], from: number, to: number, out: Float64Array): void {
  for (let i = from; i < to; i++) out[i] = statSync(files[i], { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/**
 * One stat per matched file was about half of a `glob **\/*.ts` over 50,000 files (~125 of ~240 ms), most of
 * it in the kernel: split across two threads, with prefetched batches overlapping the walk. Measured on the
 * bench's wide tree (2 shared cores, load average 7–11, interleaved with the single-threaded build): wall
 * 2.2–3.6× → 1.8–2.5× `find -printf`'s, and the server's CPU per call ~11% lower (its main heap collects
 * only half the Stats objects, presumably). The libuv pool (callback `fs.lstat`, 16–256 in flight) was
 * measured at 2–3× the CPU and wall time of a synchronous loop on the same files, hence a worker of our
 * own doing synchronous stats in bulk. A worker that fails or exits is not restarted: its share is then
 * stat'ed on the calling thread.
 */
export function createMtimeReader(parallel = availableParallelism() > 1): MtimeReader {
  let worker: Worker | undefined;
  let usable = parallel;
  let nextId = 0;
  const pending = new Map<number, (out: Float64Array | undefined) => void>();
  const prefetched = new WeakMap<readonly string[], Range[]>();
  const settleAll = () => {
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
  };
  const start = (): Worker | undefined => {
    if (worker || !usable) return worker;
    try {
      const threads = lazyRequire('node:worker_threads') as typeof import('node:worker_threads');
      worker = new threads.Worker(WORKER_SOURCE, { eval: true });
    } catch {
      usable = false;
      return undefined;
    }
    const w = worker;
    w.unref();
    w.on('message', ({ id, out }: { id: number; out: Float64Array }) => {
      pending.get(id)?.(out);
      pending.delete(id);
      if (pending.size === 0) w.unref();
    });
    const lost = () => {
      usable = false;
      worker = undefined;
      settleAll();
    };
    w.on('error', lost);
    w.on('exit', lost);
    return w;
  };
  const ask = (w: Worker, files: readonly string[], from: number, to: number): Range => {
    const id = nextId++;
    const answer = new Promise<Float64Array | undefined>((resolve) => pending.set(id, resolve));
    // Referenced while a reply is due, so that the process waits for it.
    w.ref();
    w.postMessage({ id, files: files.slice(from, to) });
    return { from, to, answer };
  };
  return {
    prefetch(files, from, to) {
      const w = to - from > 0 ? start() : undefined;
      if (!w) return;
      const ranges = prefetched.get(files) ?? [];
      ranges.push(ask(w, files, from, to));
      prefetched.set(files, ranges);
    },
    async read(files) {
      const out = new Float64Array(files.length);
      const ranges = prefetched.get(files) ?? [];
      prefetched.delete(files);
      const covered = ranges.at(-1)?.to ?? 0;
      const rest = files.length - covered;
      const w = ranges.length > 0 || files.length >= PARALLEL_FROM ? start() : undefined;
      // The worker's share of the rest evens out both threads' totals (nothing when it already has more).
      const share = w && rest > covered ? (rest - covered) >> 1 : 0;
      if (w && share > 0) ranges.push(ask(w, files, files.length - share, files.length));
      statInto(files, covered, files.length - share, out);
      for (const r of ranges) {
        const got = await r.answer;
        if (got && got.length === r.to - r.from) out.set(got, r.from);
        else statInto(files, r.from, r.to, out);
      }
      return out;
    },
    async close() {
      usable = false;
      const w = worker;
      worker = undefined;
      settleAll();
      if (w) await w.terminate();
    },
  };
}
