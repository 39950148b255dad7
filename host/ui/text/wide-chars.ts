import { createRequire } from 'node:module';
import { textWidth } from './text-width.js';

/**
 * blessed's Unicode tables predate emoji: it counts 😀 or ✅ as one column while terminals draw two, so
 * rows holding emoji shift, redraws leave stray glyphs and wrapping cuts characters. blessed marks a
 * wide character by putting a filler cell after it (its `chars.all` pattern) and skips that cell when
 * drawing (`charWidth` = 2). Both are replaced here with the terminal's width (text-width.ts), so every character a
 * terminal draws two columns wide (CJK, emoji, fullwidth forms) gets two cells.
 */
interface BlessedUnicode {
  charWidth(str: string | number, i?: number): number;
  codePointAt(str: string, i: number): number;
  chars: { all: unknown };
}

interface BlessedScreenClass {
  global?: { tabc: string };
}

type WrappedLines = string[] & { fake: string[] };

interface BlessedElementClass {
  prototype: { _wrapContent(this: unknown, content: string, width: number): WrappedLines };
}

const ASTRAL = /[\u{10000}-\u{10ffff}]/u;
const ASTRAL_ALL = /[\u{10000}-\u{10ffff}]/gu;
/** A private-use character standing in for one astral character while blessed measures a line. */
const STAND_IN = '\ue0ff';

/**
 * blessed wraps by counting UTF-16 units as columns: an astral character (🚀 🎉) is two units, and with
 * the filler cell after a wide one it counts three columns where the terminal draws two, so a row the
 * host sized to fit (a table's, ending in its border) was wrapped one column early. While blessed
 * measures, each astral character is one unit (its filler makes the second column); it is put back after.
 */
function patchWrapMeasure(element: BlessedElementClass): void {
  const original = element.prototype._wrapContent;
  element.prototype._wrapContent = function (content, width) {
    if (!ASTRAL.test(content) || content.includes(STAND_IN)) return original.call(this, content, width);
    const astral = content.match(ASTRAL_ALL) ?? [];
    const out = original.call(this, content.replace(ASTRAL_ALL, STAND_IN), width);
    const restore = (lines: string[]) => {
      let k = 0;
      for (let i = 0; i < lines.length; i++) lines[i] = lines[i]!.replaceAll(STAND_IN, () => astral[k++] ?? '');
    };
    restore(out);
    if (out.fake !== out) restore(out.fake);
    return out;
  };
}

// Characters below U+1100 (Hangul Jamo) are never wide; anything else may be, including every astral one.
const MAYBE_WIDE = /[\u{1100}-\u{10ffff}]/gu;

/** Column width of one code point as terminals draw it (cached: the same few characters recur). */
export function createWidthOf(): (char: string) => number {
  const cache = new Map<string, number>();
  return (char) => {
    let w = cache.get(char);
    if (w === undefined) {
      w = textWidth(char);
      cache.set(char, w);
    }
    return w;
  };
}

/** Inserts blessed's filler after every wide character (what `content.replace(chars.all, '$1\x03')` does). */
export function markWide(text: string, replacement: string, widthOf: (char: string) => number): string {
  return text.replace(MAYBE_WIDE, (ch) => (widthOf(ch) === 2 ? replacement.replace('$1', ch) : ch));
}

let patched = false;

export function patchBlessedWideChars(): void {
  if (patched) return;
  patched = true;
  const req = createRequire(import.meta.url);
  const unicode = req('blessed/lib/unicode.js') as BlessedUnicode;
  const widthOf = createWidthOf();
  const original = unicode.charWidth.bind(unicode);
  unicode.charWidth = (str, i) => {
    const point = typeof str === 'number' ? str : unicode.codePointAt(str, i ?? 0);
    // blessed answers a tab from the current screen's tab size, requiring its whole index (every
    // widget) on the first tab to find the screen; the screen module alone answers the same.
    if (point === 0x09) return (req('blessed/lib/widgets/screen.js') as BlessedScreenClass).global?.tabc.length ?? 8;
    if (point < 0x1100 || Number.isNaN(point)) return original(str, i);
    if (widthOf(String.fromCodePoint(point)) === 2) return 2;
    const own = original(str, i);
    return own === 2 ? 1 : own;
  };
  patchWrapMeasure(req('blessed/lib/widgets/element.js') as BlessedElementClass);
  // blessed only calls `content.replace(chars.all, replacement)`; String#replace defers to Symbol.replace.
  unicode.chars.all = {
    [Symbol.replace]: (text: string, replacement: string) => markWide(text, replacement, widthOf),
  };
}
