import { textWidth } from './text-width.js';

// One SGR sequence or one code point (astral characters stay whole).
const TOKEN = /\x1b\[[0-9;]*m|[\s\S]/gu;

/**
 * Breaks one ANSI-styled line into rows of at most `width` columns: at the row's last space, or anywhere
 * when the row has none or wide (CJK) text follows it, since CJK text breaks between any characters.
 * A plain space-only reflow would leave CJK runs unbroken, and blessed would wrap what is left without the indent.
 */
export function wrapLine(line: string, width: number): string[] {
  const max = Math.max(2, width);
  if (textWidth(line) <= max) return [line];
  const rows: string[] = [];
  let cur = '';
  let w = 0;
  let space = -1;
  let widthAtSpace = 0;
  let wideAfterSpace = false;
  for (const tok of line.match(TOKEN) ?? []) {
    if (tok.length > 1 && tok.startsWith('\x1b')) {
      cur += tok;
      continue;
    }
    const cw = textWidth(tok);
    if (w + cw > max) {
      if (tok === ' ') {
        rows.push(cur);
        cur = '';
        w = 0;
        space = -1;
        wideAfterSpace = false;
        continue;
      }
      if (space > 0 && !wideAfterSpace && cw < 2) {
        rows.push(cur.slice(0, space));
        cur = cur.slice(space + 1);
        w -= widthAtSpace + 1;
      } else {
        rows.push(cur);
        cur = '';
        w = 0;
      }
      space = -1;
      wideAfterSpace = false;
    }
    if (tok === ' ') {
      space = cur.length;
      widthAtSpace = w;
      wideAfterSpace = false;
    } else if (cw > 1) wideAfterSpace = true;
    cur += tok;
    w += cw;
  }
  rows.push(cur);
  return rows;
}

/** `wrapLine` over every line of `text`. */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((l) => wrapLine(l, width))
    .join('\n');
}
