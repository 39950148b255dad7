import { describe, expect, it } from 'vitest';
import { decodeText, splitLines } from '../../../servers/filesystem/lib/text-decode.js';

describe('splitLines', () => {
  it('splits exactly as /\\r?\\n/ does, stray carriage returns included', () => {
    const cases = [
      '',
      '\n',
      'one',
      'one\ntwo\n',
      'one\r\ntwo\r\n',
      'a\r',
      '\r\n',
      '\r',
      'a\r\r\n',
      'x\ry\nz',
      'mixed\r\nends\nhere\r',
      '\n\r\n\n',
    ];
    for (const text of cases) expect(splitLines(text), JSON.stringify(text)).toEqual(text.split(/\r?\n/));
  });

  it('long lines and a file as a search reads it: bytes decoded, then split', () => {
    const line = JSON.stringify({ events: Array.from({ length: 2_000 }, (_, i) => ({ i, msg: `event ${i}` })) });
    const lines = splitLines(decodeText(Buffer.from(`${line}\r\n${line}\n`)));
    expect(lines).toEqual([line, line, '']);
  });
});
