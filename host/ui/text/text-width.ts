import { createRequire } from 'node:module';

/**
 * Terminal column width of a string. The first screen only holds ASCII, `·`, `─` and the like: strings
 * made only of code points that are always one column are counted by length; anything else goes
 * through the East Asian Width table, loaded after the first frame (`preloadTextWidth`) or on first use.
 * test/host/ui/text/render.unit.test.ts checks every code point of the fast ranges against string-width.
 */

// Printable ASCII; Latin-1 to spacing modifiers (not the invisible soft hyphen U+00AD, nor © and ®,
// which string-width counts as emoji); dashes, quotes, bullets and ellipsis; box drawing; braille (the
// spinner). All narrow, none combining.
const NARROW_ONLY = /^[\x20-\x7e\xa0-\xa8\xaa-\xac\xaf-\u02ff\u2010-\u2027\u2500-\u257f\u2800-\u28ff]*$/;

type EastAsianWidth = (codePoint: number) => number;
let eastAsianWidth: EastAsianWidth | undefined;
let stripAnsi: ((text: string) => string) | undefined;

/** Marks (variation selectors are marks), format characters (ZWJ): drawn on the cell before, no column of their own. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;

/**
 * Columns as a terminal lays them out (wcwidth): one code point at a time, two for East Asian Wide and
 * Fullwidth (CJK, emoji shown as emoji such as ✅ 🚀), none for marks and joiners, one otherwise. A
 * grapheme-based count (string-width) says ⚠ ❤ ✔ are two columns; terminals draw them in one, so a
 * table padded that way loses its right border.
 */
export function textWidth(text: string): number {
  // Every character of those ranges is one UTF-16 unit, so the length is the column count.
  if (NARROW_ONLY.test(text)) return text.length;
  const req = createRequire(import.meta.url);
  if (text.includes('\x1b')) {
    stripAnsi ??= (req('strip-ansi') as { default: (t: string) => string }).default;
    text = stripAnsi(text);
  }
  eastAsianWidth ??= (req('get-east-asian-width') as { eastAsianWidth: EastAsianWidth }).eastAsianWidth;
  let w = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || ZERO_WIDTH.test(ch)) continue;
    w += eastAsianWidth(cp);
  }
  return w;
}

/** Loads the width table in the background so the first wide or combining character does not wait. */
export function preloadTextWidth(): Promise<void> {
  if (eastAsianWidth) return Promise.resolve();
  return import('get-east-asian-width').then(
    (m) => {
      eastAsianWidth ??= m.eastAsianWidth;
    },
    () => undefined,
  );
}
