import { lazyRequire } from '../../../protocol/lazy-require.js';
import { openChecked, readRegularHandle } from '../../common/confined-fs.js';
import type { Descriptor } from '../../common/descriptor.js';
import type { CheckedReads } from './grep-checked-reads.js';
import { isAllowedReal } from '../../common/path-guard.js';
import type { WorkspaceRoots } from '../../common/roots.js';
import { decodeText, splitLines } from './text-decode.js';

/** Above this a file is streamed line by line (up to the last line needed) instead of read whole. */
const WHOLE_READ_LIMIT = 8 * 1024 * 1024;

export interface Candidate {
  file: string;
  full: string;
  line: number;
  /** The engine's text of the line; when absent the line is only re-read and re-tested. */
  text?: string;
}

export interface Verified<M extends Candidate> {
  matches: (M & { text: string })[];
  /** Lines of each verified file, kept only when `keepLines` asked for them (auto-context). */
  lines: Map<string, string[]>;
}

/**
 * An engine reads files by name, and a name can be swapped to lead elsewhere while it runs (its working
 * directory too). So no engine output is trusted: each candidate file is opened again, the descriptor must
 * really be the file the name should denote (inside the roots), and a candidate line survives only if that
 * file holds the same text at that line and the regex matches it. Lines the JS engine read through a
 * descriptor it checked the same way (`checked`) are used as they are instead of reading the file again.
 */
export async function verifyMatches<M extends Candidate>(
  candidates: M[],
  regex: RegExp,
  roots: WorkspaceRoots,
  keepLines: boolean,
  /** Files the engine read through a descriptor it checked the same way (grep-checked-reads.ts). */
  checked?: CheckedReads,
): Promise<Verified<M>> {
  const byFile = new Map<string, M[]>();
  for (const m of candidates) {
    const list = byFile.get(m.full);
    if (list) list.push(m);
    else byFile.set(m.full, [m]);
  }
  const matches: (M & { text: string })[] = [];
  const lines = new Map<string, string[]>();
  for (const [full, list] of byFile) {
    const content =
      checked?.get(full) ??
      (await verifiedLines(full, roots, keepLines ? Infinity : Math.max(...list.map((m) => m.line))));
    if (content === undefined) continue;
    for (const m of list) {
      const actual = content[m.line - 1];
      if (actual === undefined || !regex.test(actual)) continue;
      if (m.text === undefined) matches.push({ ...m, text: actual });
      else if (actual === m.text) matches.push(m as M & { text: string });
    }
    if (keepLines) lines.set(full, content);
  }
  return { matches, lines };
}

/** Lines 1..`upTo` of the file that `full` really names, or undefined when it is not that file any more. */
async function verifiedLines(full: string, roots: WorkspaceRoots, upTo: number): Promise<string[] | undefined> {
  let fh: Descriptor;
  try {
    fh = await openChecked(full, { allowed: (real) => real === full && isAllowedReal(real, roots) });
  } catch {
    return undefined;
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) return undefined;
    // The stat just taken sizes the read: no second fstat as a whole-file read would take.
    if (st.size <= WHOLE_READ_LIMIT || upTo === Infinity)
      return splitLines(decodeText(await readRegularHandle(fh, full, st)));
    return await streamLines(fh, upTo);
  } catch {
    return undefined;
  } finally {
    await fh.close();
  }
}

async function streamLines(fh: Descriptor, upTo: number): Promise<string[]> {
  const out: string[] = [];
  const { createInterface } = lazyRequire('node:readline') as typeof import('node:readline');
  const rl = createInterface({
    input: fh.textStream(),
    crlfDelay: Infinity,
  });
  for await (const line of rl) {
    out.push(line);
    if (out.length >= upTo) break;
  }
  rl.close();
  return out;
}
