import { describe, expect, it } from 'vitest';
import { cutLine } from '../../../servers/filesystem/lib/grep-format.js';

/** The definition: right-trim, then cut after 2000 graphemes of the whole line. */
function reference(text: string): string {
  const trimmed = text.replace(/\s+$/, '');
  let count = 0;
  for (const { index } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(trimmed)) {
    if (count === 2000) return `${trimmed.slice(0, index)}... [truncated]`;
    count++;
  }
  return trimmed;
}

describe('grep line cutting', () => {
  const pieces = [
    'a',
    ' ',
    '\t',
    '\r\n',
    'é',
    'e\u0301',
    '👍🏽',
    '🇫🇷',
    '👨‍👩‍👧',
    '中',
    'x\u0301\u0302\u0303',
    '{"k":1}',
    '\r',
  ];
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };

  it('cuts exactly where segmenting the whole line would', () => {
    const lines: string[] = [
      '',
      'short',
      ' trailing  \t',
      'a'.repeat(2000),
      'a'.repeat(2001),
      `${'a'.repeat(1999)}\r\nb`,
    ];
    lines.push(`${'a'.repeat(1999)}e\u0301${'b'.repeat(10)}`, `${'a'.repeat(2000)}\u0301tail`, `${'🇫🇷'.repeat(2100)}`);
    lines.push(`${'a'.repeat(7999)}👍🏽${'b'.repeat(5000)}`, `${'x\u0301'.repeat(3000)}`, `${'a'.repeat(100_000)}   `);
    for (let i = 0; i < 300; i++) {
      const parts: string[] = [];
      const count = 1500 + rnd(3000);
      for (let k = 0; k < count; k++) parts.push(pieces[rnd(pieces.length)]);
      lines.push(parts.join(''));
    }
    for (const line of lines) expect(cutLine(line)).toBe(reference(line));
  });
});
