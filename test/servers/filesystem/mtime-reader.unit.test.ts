import { mkdirSync, realpathSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMtimeReader, type MtimeReader, PARALLEL_FROM } from '../../../servers/filesystem/lib/mtime-reader.js';
import { tempDir } from '../../helpers/tmp.js';

/** `n` files in folders of 100, with distinct mtimes spread over the whole list, and a missing path in each half. */
function files(n: number): string[] {
  const root = realpathSync(tempDir('mtime-reader-'));
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const dir = join(root, `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(dir);
    const file = join(dir, `f${i}.ts`);
    writeFileSync(file, '');
    utimesSync(file, 1_000_000 + i, 1_000_000 + ((i * 7919) % n));
    out.push(file);
  }
  out[3] = join(root, 'gone-head.ts');
  out[n - 3] = join(root, 'gone-tail.ts');
  return out;
}

const expected = (list: string[]) => list.map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0);

describe('mtime reader', () => {
  let reader: MtimeReader | undefined;
  afterEach(async () => {
    await reader?.close();
    reader = undefined;
  });

  it('reads a big list on two threads exactly as a synchronous stat loop does, in order, 0 for missing files', async () => {
    const list = files(PARALLEL_FROM + 101);
    reader = createMtimeReader(true);
    const want = expected(list);
    expect(Array.from(await reader.read(list))).toEqual(want);
    // Two reads at once get their own answers.
    const [a, b] = await Promise.all([reader.read(list), reader.read([...list].reverse())]);
    expect(Array.from(a)).toEqual(want);
    expect(Array.from(b)).toEqual([...want].reverse());
    expect(want[3]).toBe(0);
    expect(want[list.length - 3]).toBe(0);
  });

  it('uses ranges prefetched while the list grew, and stats the rest', async () => {
    const all = files(PARALLEL_FROM + 3000);
    reader = createMtimeReader(true);
    const growing: string[] = all.slice(0, PARALLEL_FROM);
    reader.prefetch(growing, 0, growing.length);
    growing.push(...all.slice(PARALLEL_FROM, PARALLEL_FROM + 2048));
    reader.prefetch(growing, PARALLEL_FROM, growing.length);
    growing.push(...all.slice(PARALLEL_FROM + 2048));
    expect(Array.from(await reader.read(growing))).toEqual(expected(all));
    // A prefetch is used once: a second read of the same array stats it again, with the same answer.
    expect(Array.from(await reader.read(growing))).toEqual(expected(all));
  });

  it('reads small lists, single-core machines and reads after close on the calling thread', async () => {
    const list = files(PARALLEL_FROM + 1);
    reader = createMtimeReader(false);
    expect(Array.from(await reader.read(list))).toEqual(expected(list));
    const parallel = createMtimeReader(true);
    expect(Array.from(await parallel.read(list.slice(0, 50)))).toEqual(expected(list.slice(0, 50)));
    await parallel.read(list);
    await parallel.close();
    expect(Array.from(await parallel.read(list))).toEqual(expected(list));
  });
});
