import type { Palette } from '../text/palette.js';

/** Header lines a unified diff carries that say nothing the card or dialog does not already show. */
const HEADER = /^(Index: |={5,}$|diff |--- |\+\+\+ |new file mode|deleted file mode)/;
const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/**
 * A unified diff as the chat shows it, in the dialog and on the card alike: no file headers, line
 * numbers in a gutter (the old file's for removals, the new file's otherwise), and each line coloured
 * whole by kind. Hunks are separated by a dotted row.
 */
export function renderDiff(diff: string, p: Palette, lineNumbers = true): string {
  const rows: { n?: number; mark: string; text: string }[] = [];
  let oldNo = 0;
  let newNo = 0;
  let hunks = 0;
  for (const line of diff.replace(/\n$/, '').split('\n')) {
    if (HEADER.test(line)) continue;
    const hunk = HUNK.exec(line);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      if (hunks++ > 0) rows.push({ mark: '⋮', text: '' });
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
  const width = String(Math.max(1, ...rows.map((r) => r.n ?? 0))).length;
  // `ui.showLineNumbers: false` (Gemini CLI's key) drops the gutter.
  const number = (n?: number) =>
    lineNumbers ? `${p.gray(n === undefined ? ' '.repeat(width) : String(n).padStart(width))} ` : '';
  return rows
    .map((r) => {
      const gutter = number(r.n);
      if (r.mark === '⋮') return `${gutter}${p.gray('⋮')}`;
      if (r.mark === '+') return `${gutter}${p.added(`+ ${r.text}`)}`;
      if (r.mark === '-') return `${gutter}${p.removed(`- ${r.text}`)}`;
      return r.mark === '\\' ? `${gutter}${p.gray(r.text)}` : `${gutter}  ${r.text}`;
    })
    .join('\n');
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
