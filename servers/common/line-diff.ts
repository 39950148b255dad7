import { diffArrays, formatPatch } from 'diff';

/**
 * One line diff per edit, bounded. Myers' algorithm costs about (old + new lines) × edit distance, which
 * is quadratic when every line changes (a 1 MB rewrite took minutes and held the event loop the whole
 * time). The edit distance searched is capped so that work stays under a fixed number of steps; past it
 * the changed middle (after the common head and tail) is shown as removed and re-added: still a correct
 * patch, just not a minimal one. Confirmation diff, written diff and snippet all derive from this one
 * result.
 */

/** Upper bound of (old + new lines) × edit distance searched. */
export const DIFF_WORK_BUDGET = 4_000_000;
/** Edit distance always allowed, however long the files. */
const MIN_EDIT_LENGTH = 64;
/**
 * Edit distance never exceeded: the search also costs about its square in bookkeeping (200 is a few
 * milliseconds, 600 already a few hundred), whatever the file sizes.
 */
const MAX_EDIT_LENGTH = 200;

export interface LineChange {
  added: boolean;
  removed: boolean;
  /**
   * Lines without their `\n`. A file's last line that lacks a newline carries a trailing `\n` instead: no
   * ordinary line can hold one, so it never equals the same text with a newline, as a line diff requires.
   */
  lines: string[];
}

export interface LineDiff {
  changes: LineChange[];
  /** False when the bound was hit and the middle is shown whole. */
  minimal: boolean;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** The lines of a text in LineChange's form; a final empty piece after the last newline is no line. */
export function linesOf(text: string): string[] {
  const parts = text.split('\n');
  const last = parts.pop() as string;
  if (last !== '') parts.push(`${last}\n`);
  return parts;
}

export function lineDiff(oldText: string, newText: string, budget = DIFF_WORK_BUDGET): LineDiff {
  const a = linesOf(oldText);
  const b = linesOf(newText);
  const total = a.length + b.length;
  const maxEditLength = Math.min(MAX_EDIT_LENGTH, Math.max(MIN_EDIT_LENGTH, Math.floor(budget / Math.max(1, total))));
  const exact = total === 0 ? [] : diffArrays(a, b, { maxEditLength });
  if (exact) {
    const changes = exact.map((c) => ({ added: !!c.added, removed: !!c.removed, lines: c.value }));
    return { changes, minimal: true };
  }
  return { changes: wholeMiddle(a, b), minimal: false };
}

/** Common head, the rest of old removed, the rest of new added, common tail. */
function wholeMiddle(a: string[], b: string[]): LineChange[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: LineChange[] = [];
  const push = (lines: string[], added: boolean, removed: boolean) => {
    if (lines.length > 0) out.push({ added, removed, lines });
  };
  push(a.slice(0, head), false, false);
  push(a.slice(head, a.length - tail), false, true);
  push(b.slice(head, b.length - tail), true, false);
  push(a.slice(a.length - tail), false, false);
  return out;
}

/**
 * Unified-diff hunks with `context` lines around each change, overlapping ones merged, and the
 * `\ No newline at end of file` marker where a side's last line lacks its newline.
 */
export function hunksOf(changes: LineChange[], context: number, withLines = true): Hunk[] {
  const all = [...changes, { added: false, removed: false, lines: [] as string[] }];
  const hunks: Hunk[] = [];
  let oldStart = 0;
  let newStart = 0;
  let body: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (let i = 0; i < all.length; i++) {
    const c = all[i];
    if (c.added || c.removed) {
      if (!oldStart) {
        const lead = i > 0 && context > 0 ? all[i - 1].lines.slice(-context) : [];
        body = lead.map((l) => ` ${l}`);
        oldStart = oldLine - lead.length;
        newStart = newLine - lead.length;
      }
      const mark = c.added ? '+' : '-';
      if (withLines) for (const l of c.lines) body.push(mark + l);
      if (c.added) newLine += c.lines.length;
      else oldLine += c.lines.length;
      continue;
    }
    if (oldStart) {
      if (c.lines.length <= context * 2 && i < all.length - 2) {
        if (withLines) for (const l of c.lines) body.push(` ${l}`);
      } else {
        const n = Math.min(c.lines.length, context);
        for (let k = 0; k < n; k++) body.push(` ${c.lines[k]}`);
        hunks.push({
          oldStart,
          oldLines: oldLine - oldStart + n,
          newStart,
          newLines: newLine - newStart + n,
          lines: body,
        });
        oldStart = 0;
        newStart = 0;
        body = [];
      }
    }
    oldLine += c.lines.length;
    newLine += c.lines.length;
  }
  if (withLines) for (const h of hunks) h.lines = withEofMarkers(h.lines);
  return hunks;
}

function withEofMarkers(lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    if (l.endsWith('\n')) out.push(l.slice(0, -1), '\\ No newline at end of file');
    else out.push(l);
  }
  return out;
}

/** Above this many characters of changed lines a diff is shown as a summary of its extent. */
export const MAX_DIFF_CHARS = 1_000_000;

/** The patch text: `Index:`, `===`, `---`/`+++` with their labels, then the hunks (3 lines of context). */
export function formatUnified(fileName: string, labels: readonly [string, string], diff: LineDiff): string {
  const header = formatPatch({
    oldFileName: fileName,
    newFileName: fileName,
    oldHeader: labels[0],
    newHeader: labels[1],
    hunks: [],
  });
  const changed = changedChars(diff.changes);
  if (changed.chars > MAX_DIFF_CHARS) {
    return (
      `${header}${hunkHeader(span(diff.changes))}\n` +
      `\\ Diff too large to show line by line: ${changed.removed} lines removed, ${changed.added} lines added\n`
    );
  }
  const hunks = hunksOf(diff.changes, 3);
  if (hunks.length === 0) return header;
  const body: string[] = [];
  for (const h of hunks) body.push(hunkHeader(h), ...h.lines);
  return `${header}${body.join('\n')}\n`;
}

/** The empty side of a hunk starts one line earlier, as unified diffs write it. */
function hunkHeader(h: Hunk): string {
  const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
  const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
  return `@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`;
}

function changedChars(changes: LineChange[]): { chars: number; added: number; removed: number } {
  let chars = 0;
  let added = 0;
  let removed = 0;
  for (const c of changes) {
    if (!c.added && !c.removed) continue;
    for (const l of c.lines) chars += l.length + 1;
    if (c.added) added += c.lines.length;
    else removed += c.lines.length;
  }
  return { chars, added, removed };
}

/** One hunk from the first change to the last, without context. */
function span(changes: LineChange[]): Hunk {
  let oldLine = 1;
  let newLine = 1;
  let first: { o: number; n: number } | undefined;
  let last = { o: 1, n: 1 };
  for (const c of changes) {
    if ((c.added || c.removed) && !first) first = { o: oldLine, n: newLine };
    if (c.added) newLine += c.lines.length;
    else if (c.removed) oldLine += c.lines.length;
    else {
      oldLine += c.lines.length;
      newLine += c.lines.length;
      continue;
    }
    last = { o: oldLine, n: newLine };
  }
  const f = first ?? { o: 1, n: 1 };
  return { oldStart: f.o, oldLines: last.o - f.o, newStart: f.n, newLines: last.n - f.n, lines: [] };
}
