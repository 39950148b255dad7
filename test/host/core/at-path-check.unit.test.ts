import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describePathProblems, findPathProblems } from '../../../host/core/at-path-check.js';
import { MAX_FILE_BYTES } from '../../../protocol/file-limits.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-atcheck-');
const work = join(base, 'work');
const other = join(base, 'other');
const evil = join(base, 'work-evil');
const tmp = join(base, 'project-tmp');
for (const d of [join(work, 'src'), other, evil, tmp]) mkdirSync(d, { recursive: true });
writeFileSync(join(work, 'src', 'a.ts'), 'x');
writeFileSync(join(work, 'my file.txt'), 'x');
writeFileSync(join(other, 'secret.txt'), 'x');
writeFileSync(join(evil, 'x.txt'), 'x');
writeFileSync(join(tmp, 'clip.png'), 'x');
symlinkSync(join(other, 'secret.txt'), join(work, 'link-out'));
symlinkSync(join(work, 'src', 'a.ts'), join(work, 'link-in'));
symlinkSync(join(work, 'gone'), join(work, 'dangling'));
writeFileSync(join(work, 'big.bin'), '');
truncateSync(join(work, 'big.bin'), MAX_FILE_BYTES + 1);
writeFileSync(join(work, 'edge.bin'), '');
truncateSync(join(work, 'edge.bin'), MAX_FILE_BYTES);

const check = (text: string, roots = [work], tempDir?: string) => findPathProblems(text, roots, [], tempDir);
const outside = `outside the workspace (${work})`;

describe('findPathProblems', () => {
  it('files inside the workspace, relative or absolute, and links within it are fine', () => {
    expect(check(`look at @src/a.ts and @${join(work, 'src', 'a.ts')} and @link-in`)).toEqual([]);
  });

  it('.. steps out, absolute paths outside and prefix siblings are outside', () => {
    expect(check(`@../other/secret.txt @${join(other, 'secret.txt')} @${join(evil, 'x.txt')}`)).toEqual([
      { path: '../other/secret.txt', problem: outside },
      { path: join(other, 'secret.txt'), problem: outside },
      { path: join(evil, 'x.txt'), problem: outside },
    ]);
  });

  it('a link out of the workspace is judged by where it leads; a dangling link is named', () => {
    expect(check('@link-out @dangling')).toEqual([
      { path: 'link-out', problem: outside },
      { path: 'dangling', problem: 'a link that leads nowhere' },
    ]);
  });

  it('a reference naming nothing is a word, not a problem; globs are left to the server', () => {
    expect(check('ask @alice about @nothing/here and @../other/*.txt')).toEqual([]);
  });

  it('an e-mail address is not a reference', () => {
    expect(check(`write to me@${join(other, 'secret.txt')}`)).toEqual([]);
  });

  it('over the read limit is too big; exactly at the limit is fine', () => {
    expect(check('@big.bin @edge.bin')).toEqual([
      { path: 'big.bin', problem: 'too big to read (20 MB; the limit is 20 MB)' },
    ]);
  });

  it('the project temp folder is readable as well, but only when given', () => {
    const clip = join(tmp, 'clip.png');
    expect(check(`@${clip}`, [work], tmp)).toEqual([]);
    expect(check(`@${clip}`)).toEqual([{ path: clip, problem: outside }]);
  });

  it('each path is reported once, with escaped spaces read as spaces', () => {
    expect(check('@my\\ file.txt @../other/secret.txt @../other/secret.txt')).toEqual([
      { path: '../other/secret.txt', problem: outside },
    ]);
  });

  it('with several roots, a relative path is looked up in each; the message lists them all', () => {
    expect(check('@secret.txt', [work, other])).toEqual([]);
    expect(check(`@${join(evil, 'x.txt')}`, [work, other])).toEqual([
      { path: join(evil, 'x.txt'), problem: `outside the workspace (${work}, ${other})` },
    ]);
  });
});

describe('describePathProblems', () => {
  it('one line per path, singular or plural heading', () => {
    expect(describePathProblems([{ path: 'a', problem: 'p' }])).toBe(
      'Not sent: a referenced path cannot be read.\n  @a: p',
    );
    expect(
      describePathProblems([
        { path: 'a', problem: 'p' },
        { path: 'b', problem: 'q' },
      ]),
    ).toBe('Not sent: referenced paths cannot be read.\n  @a: p\n  @b: q');
  });
});
