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
  const trimmed = text.trimEnd();
  // A string of at most 2000 code units cannot hold more than 2000 graphemes.
  if (trimmed.length <= MAX_GRAPHEMES) return trimmed;
  if (asciiHead(trimmed)) return `${trimmed.slice(0, MAX_GRAPHEMES)}... [truncated]`;
  return cutAtGrapheme(trimmed);
}

/**
 * Whether the first 2001 code units are ASCII without CR: each is then a grapheme of its own (only CR LF
 * joins two ASCII characters, and a mark joining the 2000th would not be ASCII), so code unit 2000 is
 * where the cut falls.
 */
function asciiHead(s: string): boolean {
  for (let i = 0; i <= MAX_GRAPHEMES; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c === 13) return false;
  }
  return true;
}

/**
 * Segments growing prefixes instead of the whole line (a 100 KB JSON line took most of a second): a
 * boundary is decided by the code points around it, so one with a whole code point after it inside the
 * prefix (two code units, should the prefix end inside a surrogate pair) is a boundary of the line too.
 */
function cutAtGrapheme(s: string): string {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (let size = MAX_GRAPHEMES * 4; ; size *= 2) {
    const prefix = s.slice(0, size);
    const whole = prefix.length === s.length;
    let count = 0;
    for (const { index } of segmenter.segment(prefix)) {
      if (count === MAX_GRAPHEMES) {
        if (whole || index + 2 < prefix.length) return `${s.slice(0, index)}... [truncated]`;
        break;
      }
      count++;
    }
    if (whole) return s;
  }
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
  if (n === 0)
    return {
      text: `No matches found for pattern "${o.pattern}" ${o.location}${o.filter}.`,
      display: 'No matches found',
    };
  const limit = o.limited ? ` (results limited to ${o.max} matches for performance)` : '';
  const parts = [
    `Found ${n} ${n === 1 ? 'match' : 'matches'} for pattern "${o.pattern}" ${o.location}${o.filter}${limit}:`,
    '---',
  ];
  for (const g of o.groups) {
    parts.push(`File: ${g.file}`);
    for (const l of g.lines) parts.push(`L${l.n}${l.match ? ':' : '-'} ${cutLine(l.text)}`);
    parts.push('---');
  }
  return {
    text: parts.join('\n').trim(),
    display: `Found ${n} ${n === 1 ? 'match' : 'matches'}${o.limited ? ' (limited)' : ''}`,
  };
}
