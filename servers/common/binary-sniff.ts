/**
 * The one content sniff (looksBinary below), shared by file reads, grep, shell output and fetched bodies
 * so that all four call the same bytes binary.
 */

export type BomEncoding = 'utf8' | 'utf16le' | 'utf16be' | 'utf32le' | 'utf32be';

/** How much of the start of the content the sniff looks at. */
export const SNIFF_BYTES = 4096;

export function detectBom(buf: Uint8Array): { encoding: BomEncoding; length: number } | undefined {
  const [a, b, c, d] = buf;
  // UTF-32 LE starts like UTF-16 LE, so it is tested first.
  if (a === 0xff && b === 0xfe && c === 0 && d === 0 && buf.length >= 4) return { encoding: 'utf32le', length: 4 };
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return { encoding: 'utf32be', length: 4 };
  if (a === 0xef && b === 0xbb && c === 0xbf) return { encoding: 'utf8', length: 3 };
  if (a === 0xff && b === 0xfe) return { encoding: 'utf16le', length: 2 };
  if (a === 0xfe && b === 0xff) return { encoding: 'utf16be', length: 2 };
  return undefined;
}

/** The first 4 KB decide: a BOM means text; a NUL byte or more than 30 % bytes below 9 or in 14–31 means binary. */
export function looksBinary(buf: Uint8Array): boolean {
  const head = buf.length > SNIFF_BYTES ? buf.subarray(0, SNIFF_BYTES) : buf;
  if (head.length === 0) return false;
  if (detectBom(head)) return false;
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 9 || (byte > 13 && byte < 32)) control++;
  }
  return control / head.length > 0.3;
}
