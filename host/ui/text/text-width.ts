import { createRequire } from 'node:module';

/**
 * Terminal column width of a string, as string-width computes it. string-width builds an
 * Intl.Segmenter when it loads, which loads ICU's segmentation data (~20 ms), while the first screen
 * only holds ASCII, `·`, `─` and the like. Strings made only of code points that are always one
 * column and never join a neighbour into a grapheme are counted here; anything else goes to
 * string-width, loaded after the first frame (`preloadTextWidth`) or, if needed sooner, on first use.
 * test/host/ui/text/render.unit.test.ts checks every code point of the fast ranges against string-width.
 */
type StringWidth = (text: string) => number;

// Printable ASCII; Latin-1 to spacing modifiers (not the invisible soft hyphen U+00AD, nor © and ®,
// which string-width counts as emoji); dashes, quotes, bullets and ellipsis; box drawing; braille (the
// spinner). All narrow, none combining.
const NARROW_ONLY = /^[\x20-\x7e\xa0-\xa8\xaa-\xac\xaf-\u02ff\u2010-\u2027\u2500-\u257f\u2800-\u28ff]*$/;

let stringWidth: StringWidth | undefined;

export function textWidth(text: string): number {
  // Every character of those ranges is one UTF-16 unit, so the length is the column count.
  if (NARROW_ONLY.test(text)) return text.length;
  stringWidth ??= (createRequire(import.meta.url)('string-width') as { default: StringWidth }).default;
  return stringWidth(text);
}

/** Loads string-width in the background so the first wide or combining character does not wait. */
export function preloadTextWidth(): Promise<void> {
  if (stringWidth) return Promise.resolve();
  return import('string-width').then(
    (m) => {
      stringWidth ??= m.default;
    },
    () => undefined,
  );
}
