import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CORE_EXCLUDE_DIRS } from './ignore-rules.js';

/** Pieces a search directory is cut into at most. */
const MAX_UNITS = 64;
/** Plain files up to this many bytes in all are searched in one run: a second run costs more than reading them. */
const ONE_RUN_BYTES = 16 * 1024 * 1024;

/**
 * Only the first 100 matches in path order are shown, so a search over a big tree need not read all of
 * it: the tree is cut into units (entries of the directory, the first directories opened up until there
 * are enough) listed in path order — a directory sorts as its name plus `/`, which is where all of its
 * files sort — and searched in batches (see nextBatch); once a batch ends with enough matches, no later
 * unit can hold an earlier one. A unit is a run of neighbouring entries: a directory with more entries
 * than there is room for (500 folders at the top, say) is cut into runs rather than searched whole,
 * which would read the entire tree for the first 100 matches. Symlinks are no units (they are not
 * followed), nor are the core excludes.
 */
export async function searchUnits(dir: string, skip: (rel: string, isDir: boolean) => boolean): Promise<string[][]> {
  let units: { rels: string[]; isDir: boolean }[] = [{ rels: [''], isDir: true }];
  for (;;) {
    const at = units.findIndex((u) => u.isDir);
    if (at === -1 || units.length >= MAX_UNITS / 4) break;
    const children = (await entriesOf(dir, units[at].rels[0])).filter((u) => !skip(u.rel, u.isDir));
    const room = MAX_UNITS - (units.length - 1);
    const runs =
      children.length > room
        ? chunk(children, Math.ceil(children.length / room)).map((run) => ({
            rels: run.map((c) => c.rel),
            isDir: false,
          }))
        : children.map((c) => ({ rels: [c.rel], isDir: c.isDir }));
    units = [...units.slice(0, at), ...runs, ...units.slice(at + 1)];
    if (children.length === 0 || children.length > room) break;
  }
  return units.map((u) => u.rels.map((r) => r || '.'));
}

function chunk<T>(xs: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += size) out.push(xs.slice(i, i + size));
  return out;
}

/**
 * How many units the next batch takes: a sixteenth first; then, at the density of matches found so far,
 * half as many again as should reach `max`; everything left when nothing matched yet (a search that
 * finds little pays for two runs, not many).
 */
export function nextBatch(done: number, total: number, found: number, max: number): number {
  const left = total - done;
  if (done === 0) return Math.min(left, Math.max(2, Math.ceil(total / 16)));
  if (found === 0) return left;
  return Math.min(left, Math.max(1, Math.ceil(((done * (max - found)) / found) * 1.5)));
}

/**
 * True when every unit is a plain file and together they are small: batches exist to avoid walking big
 * subtrees, and for a folder of a few files each extra engine run (a process spawn) costs more than
 * reading them all.
 */
export async function oneRunSuffices(dir: string, units: string[][]): Promise<boolean> {
  let bytes = 0;
  for (const unit of units.flat()) {
    const st = await lstat(join(dir, unit)).catch(() => undefined);
    if (!st?.isFile()) return false;
    bytes += st.size;
    if (bytes > ONE_RUN_BYTES) return false;
  }
  return true;
}

async function entriesOf(dir: string, rel: string): Promise<{ rel: string; isDir: boolean }[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(join(dir, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: { rel: string; isDir: boolean; key: string }[] = [];
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory() && !CORE_EXCLUDE_DIRS.includes(e.name)) out.push({ rel: r, isDir: true, key: `${r}/` });
    else if (e.isFile()) out.push({ rel: r, isDir: false, key: r });
  }
  out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return out.map(({ rel: r, isDir }) => ({ rel: r, isDir }));
}
