export interface GrepLine {
  n: number;
  text: string;
  /** A matching line (`L<n>:`) rather than context (`L<n>-`). */
  match: boolean;
}

export interface GrepGroup {
  file: string;
  lines: GrepLine[];
}

const MAX_GRAPHEMES = 2000;
// Built on first use: constructing a Segmenter loads ICU break data (~20 ms), a cost only long lines pay.
let segmenter: Intl.Segmenter | undefined;

/** Right-trims and cuts a line at 2000 graphemes. */
export function cutLine(text: string): string {
  const trimmed = text.replace(/\s+$/, '');
  // A string of at most 2000 code units cannot hold more than 2000 graphemes.
  if (trimmed.length <= MAX_GRAPHEMES) return trimmed;
  let count = 0;
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { index } of segmenter.segment(trimmed)) {
    if (count === MAX_GRAPHEMES) return `${trimmed.slice(0, index)}... [truncated]`;
    count++;
  }
  return trimmed;
}

export function formatGrepOutput(o: {
  groups: GrepGroup[];
  pattern: string;
  location: string;
  filter: string;
  max: number;
  limited: boolean;
}): { text: string; display: string } {
  const n = o.groups.reduce((sum, g) => sum + g.lines.filter((l) => l.match).length, 0);
  if (n === 0) return { text: `No matches found for pattern "${o.pattern}" ${o.location}${o.filter}.`, display: 'No matches found' };
  const limit = o.limited ? ` (results limited to ${o.max} matches for performance)` : '';
  const parts = [`Found ${n} ${n === 1 ? 'match' : 'matches'} for pattern "${o.pattern}" ${o.location}${o.filter}${limit}:`, '---'];
  for (const g of o.groups) {
    parts.push(`File: ${g.file}`);
    for (const l of g.lines) parts.push(`L${l.n}${l.match ? ':' : '-'} ${cutLine(l.text)}`);
    parts.push('---');
  }
  return { text: parts.join('\n').trim(), display: `Found ${n} ${n === 1 ? 'match' : 'matches'}${o.limited ? ' (limited)' : ''}` };
}
