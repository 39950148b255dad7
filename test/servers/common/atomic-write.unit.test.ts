import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { atomicWrite, TEMP_NAME, tempNameFor } from '../../../servers/common/atomic-write.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-atomic-');
let n = 0;
/** A fresh workspace folder and an outside folder beside it. */
function layout() {
  const dir = join(base, `case${++n}`);
  const root = join(dir, 'work');
  const outside = join(dir, 'outside');
  mkdirSync(root, { recursive: true });
  mkdirSync(outside);
  return { root, outside };
}
const noTemps = (dir: string) => expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

describe('atomicWrite', () => {
  it('writes a new file, creating missing folders, and leaves no temp file', async () => {
    const { root } = layout();
    await atomicWrite(join(root, 'a', 'b', 'f.txt'), 'hello', { base: root });
    expect(readFileSync(join(root, 'a', 'b', 'f.txt'), 'utf8')).toBe('hello');
    noTemps(join(root, 'a', 'b'));
  });

  it('replaces an existing file and keeps its mode', async () => {
    const { root } = layout();
    const f = join(root, 'run.sh');
    writeFileSync(f, 'old');
    chmodSync(f, 0o750);
    await atomicWrite(f, Buffer.from('new'));
    expect(readFileSync(f, 'utf8')).toBe('new');
    expect(statSync(f).mode & 0o7777).toBe(0o750);
    noTemps(root);
  });

  it('a symlink in the target place is replaced, and what it pointed to is untouched', async () => {
    const { root, outside } = layout();
    writeFileSync(join(outside, 'secret'), 'keep');
    symlinkSync(join(outside, 'secret'), join(root, 'f.txt'));
    await atomicWrite(join(root, 'f.txt'), 'mine', { base: root });
    expect(lstatSync(join(root, 'f.txt')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe('mine');
    expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('keep');
  });

  it('a linked folder on the way is refused, named by its path, and nothing lands outside', async () => {
    const { root, outside } = layout();
    symlinkSync(outside, join(root, 'out'));
    const err = await atomicWrite(join(root, 'out', 'deep', 'f.txt'), 'x', { base: root }).catch((e) => e);
    // Linux reports a symlink opened with O_NOFOLLOW | O_DIRECTORY as ENOTDIR.
    expect(err.code).toMatch(/^(ELOOP|ENOTDIR)$/);
    expect(err.message).toContain(join(root, 'out'));
    expect(err.message).not.toContain('/proc/self/fd');
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a target outside the base is refused before anything is created', async () => {
    const { root, outside } = layout();
    for (const target of [join(outside, 'f.txt'), join(root, '..', 'outside', 'f.txt'), `${root}-evil/f.txt`]) {
      const err = await atomicWrite(target, 'x', { base: root }).catch((e) => e);
      expect(err.code, target).toBe('EINVAL');
      expect(err.message).toContain('is not below');
    }
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a folder in the target place is EISDIR, named by its real path', async () => {
    const { root } = layout();
    mkdirSync(join(root, 'd'));
    const err = await atomicWrite(join(root, 'd'), 'x', { base: root }).catch((e) => e);
    expect(err.code).toBe('EISDIR');
    expect(err.message).toContain(join(root, 'd'));
    noTemps(root);
  });

  it('a file where a folder should be stops the write with that error', async () => {
    const { root } = layout();
    writeFileSync(join(root, 'file'), '');
    await expect(atomicWrite(join(root, 'file', 'f.txt'), 'x', { base: root })).rejects.toMatchObject({
      code: expect.stringMatching(/^(ENOTDIR|EEXIST)$/),
    });
  });

  it('without a base, the nearest existing folder is the base', async () => {
    const { root } = layout();
    await atomicWrite(join(root, 'new', 'f.txt'), 'x');
    expect(readFileSync(join(root, 'new', 'f.txt'), 'utf8')).toBe('x');
  });
});

describe('temp names', () => {
  it('match the startup-cleanup pattern, with the pid, and long names are cut', () => {
    const name = tempNameFor('f.txt');
    expect(name).toMatch(TEMP_NAME);
    expect(name.startsWith(`.f.txt.${process.pid}.`)).toBe(true);
    expect(tempNameFor('x'.repeat(300)).length).toBeLessThan(255);
    expect(TEMP_NAME.test('.f.txt.12.abcdefgh.tmp')).toBe(false);
    expect(TEMP_NAME.test('f.txt.12.0123abcd.tmp')).toBe(false);
  });
});
