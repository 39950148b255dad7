import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckedReads } from '../../../servers/filesystem/lib/grep-checked-reads.js';
import type { RawMatch } from '../../../servers/filesystem/lib/grep-engines.js';
import { runJs } from '../../../servers/filesystem/lib/grep-js-engine.js';
import { IgnoreRules } from '../../../servers/filesystem/lib/ignore-rules.js';
import { tempDir } from '../../helpers/tmp.js';

function search(dir: string, pattern: string, files?: string[], checked?: CheckedReads): Promise<RawMatch[]> {
  const found: RawMatch[] = [];
  return runJs({
    dir,
    pattern,
    regex: new RegExp(pattern, 'i'),
    rules: new IgnoreRules(dir, { git: true, gemini: true }),
    dirRel: '',
    signal: new AbortController().signal,
    onMatch: (m) => found.push(m),
    ...(files ? { files } : {}),
    ...(checked ? { checked } : {}),
  }).then(() => found.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line));
}

describe('the JS grep engine', () => {
  it('finds matches in small files, large files and empty lines alike, and skips binary files', async () => {
    const dir = tempDir('gmc-jsgrep-');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'a.ts'), 'one\r\n// TODO first\r\nthree\n');
    writeFileSync(join(dir, 'src', 'empty.ts'), '');
    // Past the synchronous read limit: read the other way.
    writeFileSync(join(dir, 'big.log'), `${'filler line\n'.repeat(40_000)}TODO last\n`);
    writeFileSync(join(dir, 'blob.bin'), Buffer.from([0x54, 0x4f, 0x44, 0x4f, 0, 1, 2]));
    expect(await search(dir, 'todo')).toEqual([
      { file: 'big.log', line: 40_001, text: 'TODO last' },
      { file: 'src/a.ts', line: 2, text: '// TODO first' },
    ]);
  });

  it('keeps the lines of a matching file only when its descriptor is that very file, inside what is allowed', async () => {
    const dir = tempDir('gmc-jsgrep-checked-');
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'src', 'a.ts'), 'one\n// TODO here\n');
    writeFileSync(join(dir, 'src', 'b.ts'), 'nothing to see\n');
    writeFileSync(join(dir, 'other', 'c.ts'), '// TODO elsewhere\n');
    // Names the listing saw as files, swapped since: a symlink to a file, and a path through a linked folder.
    symlinkSync(join(dir, 'src', 'a.ts'), join(dir, 'link.ts'));
    symlinkSync(join(dir, 'src'), join(dir, 'via'));
    const checked = new CheckedReads((real) => real.startsWith(join(dir, 'src') + '/'));
    const files = ['src/a.ts', 'src/b.ts', 'other/c.ts', 'link.ts', 'via/a.ts'];
    const found = await search(dir, 'todo', files, checked);
    // The final symlink is not followed at all; the linked folder's file is read (verification drops it).
    expect(found.map((m) => m.file)).toEqual(['other/c.ts', 'src/a.ts', 'via/a.ts']);
    expect(checked.get(join(dir, 'src', 'a.ts'))).toEqual(['one', '// TODO here', '']);
    expect(checked.get(join(dir, 'src', 'b.ts'))).toBeUndefined(); // no match
    expect(checked.get(join(dir, 'other', 'c.ts'))).toBeUndefined(); // not allowed
    expect(checked.get(join(dir, 'via', 'a.ts'))).toBeUndefined(); // its descriptor is src/a.ts
    expect(checked.get(join(dir, 'link.ts'))).toBeUndefined();
  });

  it('keeps no more lines than its bound: past it, files are left to verification', async () => {
    const dir = tempDir('gmc-jsgrep-bound-');
    writeFileSync(join(dir, 'a.txt'), 'TODO a\n');
    writeFileSync(join(dir, 'b.txt'), 'TODO b\n');
    const checked = new CheckedReads(() => true, 10);
    await search(dir, 'todo', ['a.txt', 'b.txt'], checked);
    expect(checked.get(join(dir, 'a.txt'))).toEqual(['TODO a', '']);
    expect(checked.get(join(dir, 'b.txt'))).toBeUndefined();
  });

  it('does not hang on a name that became a FIFO after the listing', async () => {
    const dir = tempDir('gmc-jsgrep-fifo-');
    writeFileSync(join(dir, 'a.txt'), 'TODO here\n');
    execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
    // As if pipe.txt had been a regular file when the tree was listed.
    expect(await search(dir, 'TODO', ['a.txt', 'pipe.txt'])).toEqual([{ file: 'a.txt', line: 1, text: 'TODO here' }]);
  });
});
