import { describe, expect, it } from 'vitest';
import { sortByRecency } from '../../../servers/filesystem/tools/glob.js';

const DAY = 24 * 60 * 60 * 1000;

/** The order the tool promises, written the plain way: recent ones newest first (ties by path), then the rest by path. */
function reference(files: string[], mtimes: number[], now: number): string[] {
  const rows = files.map((file, i) => ({ file, mtime: mtimes[i]!, recent: now - mtimes[i]! < DAY }));
  const byPath = (a: { file: string }, b: { file: string }) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
  const recent = rows.filter((r) => r.recent).sort((a, b) => b.mtime - a.mtime || byPath(a, b));
  const old = rows.filter((r) => !r.recent).sort(byPath);
  return [...recent, ...old].map((r) => r.file);
}

describe('sortByRecency', () => {
  it('orders recent files newest first with ties by path, then older ones by path, on lists full of equal mtimes', () => {
    const now = 1_800_000_000_000;
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (const size of [0, 1, 2, 50, 3000]) {
      const files = Array.from({ length: size }, (_, i) => `/w/d${rnd(40)}/f${i}-${rnd(1000)}.ts`);
      // Few distinct times (coarse clocks), some exactly at the 24-hour edge, some long ago.
      const mtimes = files.map(() => [now - rnd(20) * 4, now - DAY, now - DAY + 1, now - 5 * DAY - rnd(3)][rnd(4)]!);
      expect(sortByRecency(files, Float64Array.from(mtimes), now), `size ${size}`).toEqual(
        reference(files, mtimes, now),
      );
    }
  });
});
