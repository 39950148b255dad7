import { closeSync, constants, type Dirent, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { lazyRequire } from '../../../protocol/lazy-require.js';
import { looksBinary, SNIFF_BYTES } from '../../common/binary-sniff.js';
import { descriptorPath } from '../../common/confined-fs.js';
import { Descriptor } from '../../common/descriptor.js';
import type { EngineRequest } from './grep-engines.js';
import { CORE_EXCLUDE_DIRS } from './ignore-rules.js';
import { decodeText, splitLines } from './text-decode.js';

// The portable search engine: no process to start, so a small tree is searched here rather than by rg,
// and a machine without rg, git or grep can still search.

const STREAM_THRESHOLD = 4 * 1024 * 1024;
const CONCURRENCY = 16;

/**
 * The files below `dir` the JS engine searches (excluded and ignored directories pruned, symlinks
 * neither followed nor listed), in walk order; undefined as soon as there are more than `limit`.
 */
export async function listFiles(
  req: Pick<EngineRequest, 'dir' | 'dirRel' | 'rules' | 'signal'>,
  limit = Number.POSITIVE_INFINITY,
): Promise<string[] | undefined> {
  const files: string[] = [];
  const pruneIgnored = !req.rules.isEmpty && !req.rules.geminiNegates;
  let since = performance.now();
  const walk = async (relDir: string): Promise<boolean> => {
    if (req.signal.aborted) throw req.signal.reason;
    let entries: Dirent[];
    try {
      // Synchronously, like the small files after it (see searchSmallFileSync), yielding now and then.
      entries = readdirSync(join(req.dir, relDir), { withFileTypes: true });
      if (performance.now() - since > YIELD_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    } catch {
      return true;
    }
    const subdirs: string[] = [];
    for (const e of entries) {
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (CORE_EXCLUDE_DIRS.includes(e.name)) continue;
        if (pruneIgnored && req.rules.isIgnored(rootRel(req.dirRel, rel), true)) continue;
        subdirs.push(rel);
      } else if (e.isFile()) {
        files.push(rel);
      }
    }
    if (files.length > limit) return false;
    for (const d of subdirs) if (!(await walk(d))) return false;
    return true;
  };
  return (await walk('')) ? files : undefined;
}

/** The portable engine: walks the tree itself (see listFiles) and streams files. */
export async function runJs(req: EngineRequest): Promise<void> {
  const files = req.files ?? (await listFiles(req))!;
  let next = 0;
  let since = performance.now();
  const worker = async () => {
    while (next < files.length) {
      if (req.signal.aborted) throw req.signal.reason;
      const rel = files[next++];
      const full = join(req.dir, rel);
      let done = false;
      try {
        done = searchSmallFileSync(full, rel, req);
      } catch {
        continue;
      }
      if (!done) await searchFile(full, rel, req).catch(() => undefined);
      // Small files are read synchronously: the server still answers pings and cancellations between them.
      if (performance.now() - since > YIELD_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        since = performance.now();
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Files up to this size are read whole in one synchronous open-fstat-read-close. */
const SYNC_READ_LIMIT = 256 * 1024;
/** How long the JS engine reads synchronously before it lets the event loop run. */
const YIELD_MS = 10;

/**
 * Searches a small file with synchronous calls and returns true, or returns false (having read nothing)
 * for a larger one. Four thread-pool round trips per file (open, stat, read the head, close) and four more
 * to read it again were a third of a 40-file search (~38 → ~27 ms, interleaved, 2 shared cores); the
 * files an agent searches in-process are small. A file with a match whose descriptor really is `full`,
 * inside the roots, has its lines kept for verification (grep-checked-reads.ts).
 */
function searchSmallFileSync(full: string, rel: string, req: EngineRequest): boolean {
  // Without blocking: a name swapped for a FIFO since the listing must not hang the server. Nor following
  // a final symlink: the listing had a regular file there.
  const fd = openSync(full, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return true;
    if (st.size > SYNC_READ_LIMIT) return false;
    const buf = readWhole(fd, st.size);
    if (looksBinary(buf)) return true;
    const lines = splitLines(decodeText(buf));
    let matched = false;
    for (let i = 0; i < lines.length; i++) {
      if (!req.regex.test(lines[i])) continue;
      matched = true;
      req.onMatch({ file: rel, line: i + 1, text: lines[i] });
    }
    // Judged while the descriptor is still open: where it is, whatever the name leads to by now.
    if (matched && req.checked && descriptorPath(fd) === full && req.checked.allowed(full))
      req.checked.keep(full, lines, buf.length);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** Up to `size` bytes from the start of `fd` (fewer when the file shrank since its stat). */
function readWhole(fd: number, size: number): Buffer {
  const buf = Buffer.allocUnsafe(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, buf, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

export const rootRel = (dirRel: string, rel: string): string => (dirRel ? `${dirRel}/${rel}` : rel);

/** A file too large for searchSmallFileSync: one descriptor (opened as there, without blocking) read to the end. */
async function searchFile(full: string, rel: string, req: EngineRequest): Promise<void> {
  const fh = await Descriptor.open(full, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = await fh.stat();
    if (!st.isFile()) return;
    const head = Buffer.alloc(Math.min(SNIFF_BYTES, st.size));
    await fh.read(head, 0, head.length, 0);
    if (looksBinary(head)) return;
    if (st.size <= STREAM_THRESHOLD) {
      const lines = splitLines(decodeText(await fh.readFile()));
      for (let i = 0; i < lines.length; i++) {
        if (req.regex.test(lines[i])) req.onMatch({ file: rel, line: i + 1, text: lines[i] });
      }
      return;
    }
    const { createInterface } = lazyRequire('node:readline') as typeof import('node:readline');
    const input = fh.textStream();
    const rl = createInterface({ input, crlfDelay: Infinity });
    let n = 0;
    for await (const line of rl) {
      n++;
      if (req.regex.test(line)) req.onMatch({ file: rel, line: n, text: line });
    }
  } finally {
    await fh.close();
  }
}
