import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leadsOutside, realPathOf } from '../../../host/config/inside-folder.js';

let base: string;
let ext: string;
let outside: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'inside-folder-')));
  ext = join(base, 'ext');
  outside = join(base, 'outside');
  mkdirSync(join(ext, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(ext, 'sub', 'GEMINI.md'), 'own');
  writeFileSync(join(outside, 'secret'), 'not yours');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('leadsOutside', () => {
  it('accepts a file inside the folder, and a link that stays inside', () => {
    symlinkSync(join(ext, 'sub', 'GEMINI.md'), join(ext, 'alias.md'));
    expect(leadsOutside(ext, join(ext, 'sub', 'GEMINI.md'))).toBeUndefined();
    expect(leadsOutside(ext, join(ext, 'alias.md'))).toBeUndefined();
    expect(leadsOutside(ext, ext)).toBeUndefined();
  });

  it('names the real target of a link that leaves the folder (file, folder, /)', () => {
    symlinkSync(join(outside, 'secret'), join(ext, 'GEMINI.md'));
    symlinkSync(outside, join(ext, 'dir'));
    symlinkSync('/', join(ext, 'root'));
    expect(leadsOutside(ext, join(ext, 'GEMINI.md'))).toBe(join(outside, 'secret'));
    expect(leadsOutside(ext, join(ext, 'dir', 'secret'))).toBe(join(outside, 'secret'));
    expect(leadsOutside(ext, join(ext, 'root'))).toBe('/');
  });

  it('catches `..` that climbs out, and a sibling whose name only starts like the folder', () => {
    expect(leadsOutside(ext, join(ext, 'sub', '..', '..', 'outside', 'secret'))).toBe(join(outside, 'secret'));
    mkdirSync(`${ext}-evil`);
    expect(leadsOutside(ext, `${ext}-evil`)).toBe(`${ext}-evil`);
  });

  it('reports a dangling link, a missing path and a link loop as leading nowhere', () => {
    symlinkSync(join(base, 'gone'), join(ext, 'dangling'));
    symlinkSync(join(ext, 'loop-b'), join(ext, 'loop-a'));
    symlinkSync(join(ext, 'loop-a'), join(ext, 'loop-b'));
    for (const p of ['dangling', 'missing', 'loop-a']) {
      expect(leadsOutside(ext, join(ext, p))).toBe('nowhere (it does not resolve)');
    }
  });

  it('compares against the folder’s real path when the folder itself is reached through a link', () => {
    const linkedRoot = join(base, 'linked-ext');
    symlinkSync(ext, linkedRoot);
    expect(leadsOutside(linkedRoot, join(linkedRoot, 'sub', 'GEMINI.md'))).toBeUndefined();
    expect(leadsOutside(linkedRoot, join(outside, 'secret'))).toBe(join(outside, 'secret'));
  });
});

describe('realPathOf', () => {
  it('follows links and returns undefined for what does not resolve', () => {
    symlinkSync(outside, join(ext, 'dir'));
    expect(realPathOf(join(ext, 'dir'))).toBe(outside);
    expect(realPathOf(join(ext, 'nope'))).toBeUndefined();
  });
});
