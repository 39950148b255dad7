import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWithin, relativeWithin } from '../../protocol/path-within.js';
import { tempDir } from '../helpers/tmp.js';

describe('isWithin: the one containment test of the host and the servers', () => {
  it('the root and what is below it are inside', () => {
    expect(isWithin('/work', '/work')).toBe(true);
    expect(isWithin('/work', '/work/a/b.txt')).toBe(true);
    expect(isWithin('/work/', '/work/a')).toBe(true);
    // A name that merely starts with two dots is a name, not a step up.
    expect(isWithin('/work', '/work/..hidden')).toBe(true);
  });

  it('.. steps, siblings and string prefixes are outside', () => {
    expect(isWithin('/work', '/work/../etc/passwd')).toBe(false);
    expect(isWithin('/work', '/work/a/../../etc')).toBe(false);
    expect(isWithin('/work', '/')).toBe(false);
    expect(isWithin('/work', '/work-evil')).toBe(false);
    expect(isWithin('/work', '/work-evil/x')).toBe(false);
    expect(isWithin('/work', '/workspace')).toBe(false);
  });

  it('a link is judged where it really leads when the caller passes real paths', () => {
    const base = tempDir('gmc-within-');
    const root = join(base, 'root');
    const outside = join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    symlinkSync(outside, join(root, 'link'));
    // As written the link is inside; really, it leads out.
    expect(isWithin(root, join(root, 'link', 'secret'))).toBe(true);
    expect(isWithin(realpathSync(root), realpathSync(join(root, 'link')))).toBe(false);
  });

  it('relativeWithin gives the path below the root, or undefined outside it', () => {
    expect(relativeWithin('/home/u', '/home/u')).toBe('');
    expect(relativeWithin('/home/u', '/home/u/.gemini/GEMINI.md')).toBe('.gemini/GEMINI.md');
    expect(relativeWithin('/home/u', '/home/user2/x')).toBeUndefined();
  });
});
