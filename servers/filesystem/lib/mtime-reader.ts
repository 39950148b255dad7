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

/** Files one thread claims at a time from a batch both threads work on (~0.5 ms of stats here). */
const CHUNK = 64;

// CommonJS source for `new Worker(…, { eval: true })`: the bundle has no separate file to point a worker at.
// A batch's `shared` buffer holds two counters (next unclaimed index, files done) and then one mtime per
// file. Both threads claim chunks with Atomics.add; whichever finishes a batch's last file reports it.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { statSync } = require('node:fs');
parentPort.on('message', ({ id, files, shared }) => {
  const counters = new Int32Array(shared, 0, 2);
  const out = new Float64Array(shared, 8, files.length);
  for (;;) {
    const from = Atomics.add(counters, 0, ${CHUNK});
    if (from >= files.length) return;
    const to = Math.min(files.length, from + ${CHUNK});
    for (let i = from; i < to; i++) out[i] = statSync(files[i], { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (Atomics.add(counters, 1, to - from) + (to - from) === files.length) parentPort.postMessage({ id });
  }
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

/** `files[from..to)` handed to the worker; the calling thread may claim chunks of it too. */
interface Batch {
  id: number;
  from: number;
  to: number;
  counters: Int32Array;
  out: Float64Array;
  /** True once every file is done (by either thread); false if the worker was lost on the way. */
  done: Promise<boolean>;
}

/** A file's mtime in ms; 0 for one that no longer exists. */
const mtimeOf = (file: string): number => statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;

function statInto(files: readonly string[], from: number, to: number, out: Float64Array): void {
  for (let i = from; i < to; i++) out[i] = mtimeOf(files[i]!);
}

/**
 * One stat per matched file was about half of a `glob **\/*.ts` over 50,000 files (~125 of ~240 ms), most of
 * it in the kernel. So a worker thread stats batches as the walk hands them over, and once the walk is done
 * the calling thread claims chunks of the same batches instead of waiting for the worker: both threads
 * finish together. The libuv pool (callback `fs.lstat`, 16–256 in flight) was measured at 2–3× the CPU and
 * wall time of a synchronous loop on the same files, hence a worker of our own doing synchronous stats in
 * bulk. A worker that fails or exits is not restarted: what it had not reported is stat'ed on the calling
 * thread.
 *
 * Measured on the bench's wide tree (50,000 matches, 2 shared cores): before the calling thread helped, the
 * worker spent ~470 ms per call in stat while the calling thread, done walking after ~200 ms, waited.
 */
export function createMtimeReader(parallel = availableParallelism() > 1): MtimeReader {
  let worker: Worker | undefined;
  let usable = parallel;
  let nextId = 0;
  const pending = new Map<number, (done: boolean) => void>();
  const prefetched = new WeakMap<readonly string[], Batch[]>();
  const settle = (id: number, done: boolean) => {
    pending.get(id)?.(done);
    pending.delete(id);
    if (pending.size === 0) worker?.unref();
  };
  const settleAll = () => {
    for (const id of [...pending.keys()]) settle(id, false);
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
    w.on('message', ({ id }: { id: number }) => settle(id, true));
    const lost = () => {
      usable = false;
      worker = undefined;
      settleAll();
    };
    w.on('error', lost);
    w.on('exit', lost);
    return w;
  };
  const hand = (w: Worker, files: readonly string[], from: number, to: number): Batch => {
    const id = nextId++;
    const shared = new SharedArrayBuffer(8 + 8 * (to - from));
    const done = new Promise<boolean>((resolve) => pending.set(id, resolve));
    // Referenced while a batch is open, so that the process waits for it.
    w.ref();
    w.postMessage({ id, files: files.slice(from, to), shared });
    return { id, from, to, counters: new Int32Array(shared, 0, 2), out: new Float64Array(shared, 8), done };
  };
  /** The calling thread's part of a batch: chunks the worker has not claimed yet. */
  const help = (files: readonly string[], b: Batch) => {
    const n = b.to - b.from;
    for (;;) {
      const from = Atomics.add(b.counters, 0, CHUNK);
      if (from >= n) return;
      const to = Math.min(n, from + CHUNK);
      for (let i = from; i < to; i++) b.out[i] = mtimeOf(files[b.from + i]!);
      if (Atomics.add(b.counters, 1, to - from) + (to - from) === n) settle(b.id, true);
    }
  };
  return {
    prefetch(files, from, to) {
      const w = to - from > 0 ? start() : undefined;
      if (!w) return;
      const batches = prefetched.get(files) ?? [];
      batches.push(hand(w, files, from, to));
      prefetched.set(files, batches);
    },
    async read(files) {
      const out = new Float64Array(files.length);
      const batches = prefetched.get(files) ?? [];
      prefetched.delete(files);
      const covered = batches.at(-1)?.to ?? 0;
      const w = batches.length > 0 || files.length >= PARALLEL_FROM ? start() : undefined;
      if (w && covered < files.length) batches.push(hand(w, files, covered, files.length));
      else statInto(files, covered, files.length, out);
      for (const b of batches) help(files, b);
      for (const b of batches) {
        if (await b.done) out.set(b.out, b.from);
        else statInto(files, b.from, b.to, out);
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
