import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../servers/common/diff.js';
import { lineDiff, MAX_DIFF_CHARS } from '../../../servers/common/line-diff.js';

/** Deterministic pseudo-random texts: small alphabets of lines so edits collide and align ambiguously. */
function* cases(): Generator<[string, string]> {
  let seed = 12345;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const text = (lines: number) => {
    const out: string[] = [];
    for (let i = 0; i < lines; i++) out.push(['a', 'b', 'c', 'same', '', '  x'][rnd(6)]);
    const body = out.join('\n');
    return rnd(3) === 0 ? body : `${body}\n`;
  };
  for (let i = 0; i < 400; i++) {
    const a = text(rnd(40));
    const lines = a.split('\n');
    for (let k = rnd(5); k > 0; k--) lines.splice(rnd(lines.length + 1), rnd(3), ...(rnd(2) ? ['new', 'b'] : []));
    yield [a, rnd(7) === 0 ? text(rnd(40)) : lines.join('\n')];
  }
  yield ['', 'x\n'];
  yield ['x\n', ''];
  yield ['x', 'x\n'];
  yield ['same\n', 'same\n'];
}

describe('bounded line diff', () => {
  it('gives exactly the patch jsdiff gives for edits within the bound', () => {
    for (const [a, b] of cases()) {
      expect(unifiedDiff('f.txt', a, b)).toBe(
        createTwoFilesPatch('f.txt', 'f.txt', a, b, 'Current', 'Proposed', { context: 3 }),
      );
    }
  });

  it('stops searching at the work bound: a full rewrite becomes one removed-and-added middle', () => {
    const lines = (tag: string) => Array.from({ length: 20_000 }, (_, i) => `${tag} ${i}`).join('\n');
    const head = 'kept head\n';
    const d = lineDiff(`${head}${lines('old')}\ntail\n`, `${head}${lines('new')}\ntail\n`);
    expect(d.minimal).toBe(false);
    expect(d.changes.map((c) => [c.added, c.removed, c.lines.length])).toEqual([
      [false, false, 1],
      [false, true, 20_000],
      [true, false, 20_000],
      [false, false, 1],
    ]);
  });

  it('summarises a diff whose changed lines exceed the display bound', () => {
    const big = (tag: string) =>
      `${Array.from({ length: 30_000 }, (_, i) => `${tag} line ${i} ${'z'.repeat(40)}`).join('\n')}\n`;
    const text = unifiedDiff('big.txt', big('old'), big('new'));
    expect(text.length).toBeLessThan(1000);
    expect(MAX_DIFF_CHARS).toBeLessThan(big('old').length * 2);
    expect(text).toBe(
      'Index: big.txt\n===================================================================\n' +
        '--- big.txt\tCurrent\n+++ big.txt\tProposed\n@@ -1,30000 +1,30000 @@\n' +
        '\\ Diff too large to show line by line: 30000 lines removed, 30000 lines added\n',
    );
  });
});
