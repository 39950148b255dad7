import { describe, expect, it } from 'vitest';
import { detectBom, looksBinary, SNIFF_BYTES } from '../../../servers/common/binary-sniff.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('detectBom', () => {
  it('each BOM with its length; UTF-32 LE before the UTF-16 LE it starts like', () => {
    expect(detectBom(bytes(0xef, 0xbb, 0xbf, 0x41))).toEqual({ encoding: 'utf8', length: 3 });
    expect(detectBom(bytes(0xff, 0xfe, 0x41, 0x00))).toEqual({ encoding: 'utf16le', length: 2 });
    expect(detectBom(bytes(0xfe, 0xff, 0x00, 0x41))).toEqual({ encoding: 'utf16be', length: 2 });
    expect(detectBom(bytes(0xff, 0xfe, 0x00, 0x00))).toEqual({ encoding: 'utf32le', length: 4 });
    expect(detectBom(bytes(0x00, 0x00, 0xfe, 0xff))).toEqual({ encoding: 'utf32be', length: 4 });
  });

  it('a short buffer that only starts like a BOM, and plain text, have none', () => {
    expect(detectBom(bytes(0xff, 0xfe, 0x00))).toEqual({ encoding: 'utf16le', length: 2 });
    expect(detectBom(bytes(0xef, 0xbb))).toBeUndefined();
    expect(detectBom(Buffer.from('hello'))).toBeUndefined();
    expect(detectBom(bytes())).toBeUndefined();
  });
});

describe('looksBinary', () => {
  it('text, UTF-8 and empty content are text', () => {
    expect(looksBinary(Buffer.from('line one\n\tindented\r\n'))).toBe(false);
    expect(looksBinary(Buffer.from('héllo wörld ✓ 🙂'))).toBe(false);
    expect(looksBinary(bytes())).toBe(false);
  });

  it('a NUL byte makes it binary, unless a BOM says text (UTF-16 is full of NULs)', () => {
    expect(looksBinary(bytes(0x41, 0x00, 0x42))).toBe(true);
    expect(looksBinary(Buffer.from('\ufeffhi', 'utf16le'))).toBe(false);
  });

  it('more than 30% control characters is binary; 30% or less is text', () => {
    const mixed = (controls: number, total: number) =>
      Uint8Array.from({ length: total }, (_, i) => (i < controls ? 0x01 : 0x41));
    expect(looksBinary(mixed(31, 100))).toBe(true);
    expect(looksBinary(mixed(30, 100))).toBe(false);
    // Tab, line feed, vertical tab, form feed and carriage return are text.
    expect(looksBinary(Uint8Array.from({ length: 100 }, (_, i) => 9 + (i % 5)))).toBe(false);
    // ESC (27) counts as control.
    expect(looksBinary(Uint8Array.from({ length: 100 }, () => 27))).toBe(true);
  });

  it(`only the first ${SNIFF_BYTES} bytes decide`, () => {
    const late = new Uint8Array(SNIFF_BYTES + 10).fill(0x41);
    late[SNIFF_BYTES + 5] = 0;
    expect(looksBinary(late)).toBe(false);
    late[SNIFF_BYTES - 1] = 0;
    expect(looksBinary(late)).toBe(true);
  });
});
