import { existsSync, mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
// @ts-expect-error: a plain .mjs bench module without type declarations
import { ourMatches } from '../../../scripts/bench/_fs-tree.mjs';
import { connectFs } from './connect.js';
import { oneRunSuffices, searchUnits } from '../../../servers/filesystem/lib/grep-units.js';

/**
 * rg searches the tree in path-ordered batches and stops once 100 matches are known: the matches shown
 * must be the first 100 in path order of the whole tree, however the units and batches fall (a file
 * `d1.txt` sorts before the directory `d1/`, which sorts before `d10/`).
 */
describe('search_file_content in batches (rg)', () => {
  const saved = process.env.GEMINI_MCP_GREP_ENGINE;
  beforeAll(() => {
    process.env.GEMINI_MCP_GREP_ENGINE = 'rg';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.GEMINI_MCP_GREP_ENGINE;
    else process.env.GEMINI_MCP_GREP_ENGINE = saved;
  });

  it('shows the first 100 matches in path order of the whole tree', async () => {
    const root = tempDir('gmc-batches-');
    const expected: string[] = [];
    for (let d = 0; d < 40; d++) {
      mkdirSync(join(root, `d${d}`, 'sub'), { recursive: true });
      writeFileSync(join(root, `d${d}.txt`), 'hit top\n');
      expected.push(`d${d}.txt:1`);
      for (let f = 0; f < 3; f++) {
        writeFileSync(join(root, `d${d}`, `f${f}.txt`), `miss\nhit ${d} ${f}\n`);
        expected.push(`d${d}/f${f}.txt:2`);
      }
      writeFileSync(join(root, `d${d}`, 'sub', 'deep.txt'), 'hit deep\n');
      expected.push(`d${d}/sub/deep.txt:1`);
    }
    const key = (s: string) => s.slice(0, s.lastIndexOf(':'));
    expected.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('search_file_content', { pattern: 'hit' });
    const shown = ourMatches(text);
    expect(text).toMatch(/^Found 100 matches .*\(results limited to 100 matches for performance\):/);
    expect(shown).toEqual(expected.slice(0, 100));
  });

  it('a folder of 300 folders is cut into runs of neighbours, not searched whole, and still shows the first 100', async () => {
    const root = tempDir('gmc-wide-');
    const expected: string[] = [];
    for (let d = 0; d < 300; d++) {
      mkdirSync(join(root, `w${d}`));
      writeFileSync(join(root, `w${d}`, 'a.txt'), 'hit a\n');
      expected.push(`w${d}/a.txt:1`);
      if (d % 7 === 0) {
        writeFileSync(join(root, `w${d}.txt`), 'hit file\n');
        expected.push(`w${d}.txt:1`);
      }
    }
    const units = await searchUnits(root, () => false);
    // Before runs, a folder with more entries than units became one unit: the whole tree in one engine run.
    expect(units.length).toBeGreaterThan(16);
    expect(units.length).toBeLessThanOrEqual(64);
    const flat = units.flat();
    const key = (s: string) => (s.endsWith('.txt') ? s : `${s}/`);
    expect(flat.map(key)).toEqual([...flat].map(key).sort());
    expect(flat).toHaveLength(300 + Math.ceil(300 / 7));
    const byPath = (a: string, b: string) => {
      const ka = a.slice(0, a.lastIndexOf(':'));
      const kb = b.slice(0, b.lastIndexOf(':'));
      return ka < kb ? -1 : ka > kb ? 1 : 0;
    };
    const fs = await connectFs({ roots: [root] });
    const shown = ourMatches(await fs.text('search_file_content', { pattern: 'hit' }));
    expect(shown).toEqual(expected.sort(byPath).slice(0, 100));
  });

  it('rg reports line numbers only; where its regex takes lines JS refuses, the first 100 are still right', async () => {
    const root = tempDir('gmc-lines-only-');
    // Rust's \d takes any Unicode digit, JavaScript's only 0-9: a.txt's lines are rg matches the search refuses.
    writeFileSync(join(root, 'a.txt'), '\u0663\n'.repeat(150));
    writeFileSync(join(root, 'b.txt'), Array.from({ length: 120 }, (_, i) => `row ${i}`).join('\n'));
    writeFileSync(join(root, 'c.txt'), `${'x'.repeat(200_000)} 42\n`);
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('search_file_content', { pattern: '\\d' });
    expect(text).toMatch(/^Found 100 matches/);
    expect(text).toContain('File: b.txt');
    expect(text).not.toContain('File: a.txt');
    expect(text).toContain('L1: row 0');
    const long = await fs.text('search_file_content', { pattern: 'x{5} 42' });
    expect(long).toContain('File: c.txt');
  });
});

describe('oneRunSuffices: a folder of a few small files is searched in one engine run', () => {
  it('holds for plain files up to 16 MB in all, not with a directory or more bytes', async () => {
    const root = tempDir('gmc-one-run-');
    mkdirSync(join(root, 'dir'));
    for (const f of ['a.json', 'b.json']) writeFileSync(join(root, f), 'x'.repeat(1000));
    truncateSync(join(root, 'b.json'), 15 * 1024 * 1024);
    writeFileSync(join(root, 'c.json'), '');
    expect(await oneRunSuffices(root, [['a.json'], ['b.json'], ['c.json']])).toBe(true);
    expect(await oneRunSuffices(root, [['a.json'], ['dir']])).toBe(false);
    truncateSync(join(root, 'c.json'), 2 * 1024 * 1024);
    expect(await oneRunSuffices(root, [['a.json'], ['b.json'], ['c.json']])).toBe(false);
    expect(await oneRunSuffices(root, [['a.json'], ['missing.json']])).toBe(false);
  });

  it('one run over files still shows the first 100 matches in path order', async () => {
    const root = tempDir('gmc-one-run-order-');
    const expected: string[] = [];
    for (let f = 0; f < 30; f++) {
      const name = `log${String(f).padStart(2, '0')}.json`;
      writeFileSync(join(root, name), Array.from({ length: 5 }, (_, i) => `{"event":"hit ${i}"}`).join('\n'));
      for (let i = 1; i <= 5; i++) expected.push(`${name}:${i}`);
    }
    const saved = process.env.GEMINI_MCP_GREP_ENGINE;
    process.env.GEMINI_MCP_GREP_ENGINE = 'rg';
    try {
      const fs = await connectFs({ roots: [root] });
      const text = await fs.text('search_file_content', { pattern: 'hit' });
      const shown = ourMatches(text);
      expect(shown).toEqual(expected.slice(0, 100));
    } finally {
      if (saved === undefined) delete process.env.GEMINI_MCP_GREP_ENGINE;
      else process.env.GEMINI_MCP_GREP_ENGINE = saved;
    }
  });
});

describe('search_file_content on a small tree', () => {
  const savedPath = process.env.PATH;
  const savedEngine = process.env.GEMINI_MCP_GREP_ENGINE;
  afterAll(() => {
    process.env.PATH = savedPath;
    if (savedEngine === undefined) delete process.env.GEMINI_MCP_GREP_ENGINE;
    else process.env.GEMINI_MCP_GREP_ENGINE = savedEngine;
  });

  it('searches a few hundred files in-process and starts rg only for a bigger tree', async () => {
    delete process.env.GEMINI_MCP_GREP_ENGINE;
    // An rg that only notes that it ran: whether the search started it is all this test asks.
    const bin = tempDir('gmc-fake-rg-');
    const marker = join(bin, 'ran');
    writeFileSync(join(bin, 'rg'), `#!/bin/sh\necho ran >> '${marker}'\nexit 1\n`, { mode: 0o755 });
    process.env.PATH = `${bin}:${savedPath}`;
    const small = tempDir('gmc-small-tree-');
    for (let i = 0; i < 30; i++) writeFileSync(join(small, `f${i}.ts`), i % 3 ? 'nothing\n' : `// TODO ${i}\n`);
    const fs = await connectFs({ roots: [small] });
    expect(ourMatches(await fs.text('search_file_content', { pattern: 'TODO' }))).toHaveLength(10);
    expect(existsSync(marker)).toBe(false);

    const big = tempDir('gmc-big-tree-');
    for (let d = 0; d < 9; d++) {
      mkdirSync(join(big, `d${d}`));
      for (let f = 0; f < 50; f++) writeFileSync(join(big, `d${d}`, `f${f}.ts`), 'nothing\n');
    }
    const fsBig = await connectFs({ roots: [big] });
    await fsBig.text('search_file_content', { pattern: 'TODO' });
    expect(existsSync(marker)).toBe(true);
  });
});
