import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RawMatch } from '../../../servers/filesystem/lib/grep-engines.js';
import { runJs } from '../../../servers/filesystem/lib/grep-js-engine.js';
import { IgnoreRules } from '../../../servers/filesystem/lib/ignore-rules.js';
import { tempDir } from '../../helpers/tmp.js';

function search(dir: string, pattern: string, files?: string[]): Promise<RawMatch[]> {
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

  it('does not hang on a name that became a FIFO after the listing', async () => {
    const dir = tempDir('gmc-jsgrep-fifo-');
    writeFileSync(join(dir, 'a.txt'), 'TODO here\n');
    execFileSync('mkfifo', [join(dir, 'pipe.txt')]);
    // As if pipe.txt had been a regular file when the tree was listed.
    expect(await search(dir, 'TODO', ['a.txt', 'pipe.txt'])).toEqual([{ file: 'a.txt', line: 1, text: 'TODO here' }]);
  });
});
