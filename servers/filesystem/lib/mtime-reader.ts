import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/**
 * From this many files on, half of them are stat'ed on a worker thread while this thread stats the other
 * half. Below it the worker's round trip (and its ~10 MB, paid once) is not worth it: small globs, such as
 * an agent session's usual ones, never start it.
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
  /** Each file's mtime in ms, 0 for a file that no longer exists (it then sorts with the old files). */
  read(files: readonly string[]): Promise<Float64Array>;
  /** Ends the worker, if one was started; later reads stat on the calling thread. */
  close(): Promise<void>;
}

function statInto(files: readonly string[], from: number, to: number, out: Float64Array): void {
  for (let i = from; i < to; i++) out[i] = statSync(files[i], { throwIfNoEntry: false })?.mtimeMs ?? 0;
}

/**
 * One stat per matched file was about half of a `glob **\/*.ts` over 50,000 files (~125 of ~240 ms), most of
 * it in the kernel: split across two threads, the stats take about half the wall time on two free cores.
 * The libuv pool (callback `fs.lstat`, 16–256 in flight) was measured at 2–3× the CPU and wall time of a
 * synchronous loop on the same 50,000 files, hence a worker of our own doing synchronous stats in bulk.
 * A worker that fails or exits is not restarted: its share is stat'ed on the calling thread.
 */
export function createMtimeReader(parallel = availableParallelism() > 1): MtimeReader {
  let worker: Worker | undefined;
  let usable = parallel;
  let nextId = 0;
  const pending = new Map<number, (out: Float64Array | undefined) => void>();
  const settleAll = () => {
    for (const resolve of pending.values()) resolve(undefined);
    pending.clear();
  };
  const start = (): Worker | undefined => {
    if (worker || !usable) return worker;
    try {
      worker = new Worker(WORKER_SOURCE, { eval: true });
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
  return {
    async read(files) {
      const out = new Float64Array(files.length);
      const w = files.length >= PARALLEL_FROM ? start() : undefined;
      if (!w) {
        statInto(files, 0, files.length, out);
        return out;
      }
      const split = files.length >> 1;
      const id = nextId++;
      const tail = new Promise<Float64Array | undefined>((resolve) => pending.set(id, resolve));
      // Referenced while a reply is due, so that the process waits for it.
      w.ref();
      w.postMessage({ id, files: files.slice(split) });
      statInto(files, 0, split, out);
      const got = await tail;
      if (got && got.length === files.length - split) out.set(got, split);
      else statInto(files, split, files.length, out);
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
