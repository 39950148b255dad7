import type { Palette } from '../text/palette.js';

/** Header lines a unified diff carries that say nothing the card or dialog does not already show. */
const HEADER = /^(Index: |={5,}$|diff |--- |\+\+\+ |new file mode|deleted file mode)/;
const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

type Row = { n?: number; mark: string; text: string };

/**
 * Within a change (removed lines followed by added ones) the lines are shown in pairs, each old line
 * above the line that replaced it: a 300-line rewrite otherwise reads as 300 deletions (the file looks
 * emptied) before the first addition. Unequal runs end with the longer side's rest.
 */
function interleave(rows: Row[]): Row[] {
  const out: Row[] = [];
  for (let i = 0; i < rows.length; ) {
    if (rows[i]!.mark !== '-') {
      out.push(rows[i++]!);
      continue;
    }
    const removed: Row[] = [];
    while (rows[i]?.mark === '-') removed.push(rows[i++]!);
    const added: Row[] = [];
    while (rows[i]?.mark === '+') added.push(rows[i++]!);
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      if (removed[k]) out.push(removed[k]!);
      if (added[k]) out.push(added[k]!);
    }
  }
  return out;
}

function diffRows(diff: string): Row[][] {
  const hunks: Row[][] = [];
  let rows: Row[] = [];
  let oldNo = 0;
  let newNo = 0;
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    if (HEADER.test(line)) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      if (rows.length) hunks.push(rows);
      rows = [];
      continue;
    }
    if (line.startsWith('\\')) rows.push({ mark: '\\', text: line });
    else if (line.startsWith('+')) rows.push({ n: newNo++, mark: '+', text: line.slice(1) });
    else if (line.startsWith('-')) rows.push({ n: oldNo++, mark: '-', text: line.slice(1) });
    else {
      rows.push({ n: newNo++, mark: ' ', text: line.slice(1) });
      oldNo++;
    }
  }
  if (rows.length) hunks.push(rows);
  return hunks.map(interleave);
}

export interface RenderDiffOptions {
  /** Line numbers in a gutter (`ui.showLineNumbers`, Gemini CLI's key; on unless false). */
  lineNumbers?: boolean;
  /** Only the first hunk (the card's preview); the count of the others is said after it. */
  firstHunk?: boolean;
}

/**
 * A unified diff as the chat shows it, in the dialog and on the card alike: no file headers, line
 * numbers in a gutter (the old file's for removals, the new file's otherwise), each line coloured whole
 * by kind, and each changed line next to its replacement. Hunks are separated by a dotted row.
 */
export function renderDiff(diff: string, p: Palette, opts: RenderDiffOptions = {}): string {
  const all = diffRows(diff);
  const hunks = opts.firstHunk ? all.slice(0, 1) : all;
  const rows = hunks.flatMap((h, i) => (i > 0 ? [{ mark: '⋮', text: '' }, ...h] : h));
  const width = String(Math.max(1, ...rows.map((r) => r.n ?? 0))).length;
  const number = (n?: number) =>
    opts.lineNumbers !== false ? `${p.gray(n === undefined ? ' '.repeat(width) : String(n).padStart(width))} ` : '';
  const out = rows.map((r) => {
    const gutter = number(r.n);
    if (r.mark === '⋮') return `${gutter}${p.gray('⋮')}`;
    if (r.mark === '+') return `${gutter}${p.added(`+ ${r.text}`)}`;
    if (r.mark === '-') return `${gutter}${p.removed(`- ${r.text}`)}`;
    return r.mark === '\\' ? `${gutter}${p.gray(r.text)}` : `${gutter}  ${r.text}`;
  });
  const more = all.length - hunks.length;
  if (more > 0) out.push(p.gray(`⋮ ${more} more change${more === 1 ? '' : 's'} below`));
  return out.join('\n');
}

/** `+12 −3`, coloured: said before a diff so its size is known before scrolling through it. */
export function diffSummary(diff: string, p: Palette): string {
  const st = diffStats(diff);
  return `${p.green(`+${st.added}`)} ${p.red(`−${st.removed}`)}`;
}

/** Counts added / removed lines, for a one-line summary on a collapsed card. */
export function diffStats(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added++;
    else if (line.startsWith('-')) removed++;
  }
  return { added, removed };
}
