import { mkdirSync, readFileSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isWithin } from '../../../protocol/path-within.js';
import {
  childOf,
  descriptorPath,
  ESCAPED,
  fdPathsWork,
  isEscape,
  openChecked,
  readChecked,
  readRegularHandle,
} from '../../../servers/common/confined-fs.js';
import { Descriptor } from '../../../servers/common/descriptor.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-confined-');
const root = join(base, 'work');
const outside = join(base, 'outside');
const evil = join(base, 'work-evil');
for (const d of [join(root, 'sub'), outside, evil]) mkdirSync(d, { recursive: true });
writeFileSync(join(root, 'a.txt'), 'inside');
writeFileSync(join(outside, 'secret.txt'), 'secret');
writeFileSync(join(evil, 'x.txt'), 'evil');
symlinkSync(join(outside, 'secret.txt'), join(root, 'file-link'));
symlinkSync(outside, join(root, 'dir-link'));
symlinkSync(join(root, 'sub'), join(root, 'sub-link'));
const inRoot = (real: string) => isWithin(root, real);

describe('readChecked', () => {
  it('reads a file that really lies inside', async () => {
    expect((await readChecked(join(root, 'a.txt'), inRoot)).toString()).toBe('inside');
    expect((await readChecked(join(root, 'sub', '..', 'a.txt'), inRoot)).toString()).toBe('inside');
  });

  it('a final symlink is refused with ELOOP, even one leading to an allowed place', async () => {
    await expect(readChecked(join(root, 'file-link'), inRoot)).rejects.toMatchObject({ code: 'ELOOP' });
    await expect(readChecked(join(root, 'file-link'), () => true)).rejects.toMatchObject({ code: 'ELOOP' });
  });

  it('a file reached through a linked folder is judged where it really is: ESCAPED', async () => {
    const err = await readChecked(join(root, 'dir-link', 'secret.txt'), inRoot).catch((e) => e);
    expect(err.code).toBe(ESCAPED);
    expect(err.message).toContain('resolves outside the allowed workspace directories');
    expect(isEscape(err)).toBe(true);
  });

  it('.. out of the root and a prefix sibling are ESCAPED', async () => {
    await expect(readChecked(join(root, '..', 'outside', 'secret.txt'), inRoot)).rejects.toMatchObject({
      code: ESCAPED,
    });
    await expect(readChecked(join(evil, 'x.txt'), inRoot)).rejects.toMatchObject({ code: ESCAPED });
  });

  it('a directory is EISDIR; a missing file keeps its own ENOENT (not an escape)', async () => {
    await expect(readChecked(join(root, 'sub'), inRoot)).rejects.toMatchObject({ code: 'EISDIR' });
    const err = await readChecked(join(root, 'nope'), inRoot).catch((e) => e);
    expect(err.code).toBe('ENOENT');
    expect(isEscape(err)).toBe(false);
  });
});

describe('openChecked for directories', () => {
  it('opens a real folder inside; refuses a final folder link with ELOOP', async () => {
    const fh = await openChecked(join(root, 'sub'), { allowed: inRoot, directory: true });
    await fh.close();
    await expect(openChecked(join(root, 'sub-link'), { allowed: inRoot, directory: true })).rejects.toMatchObject({
      code: 'ELOOP',
    });
  });

  it('a file opened as a directory is ENOTDIR', async () => {
    await expect(openChecked(join(root, 'a.txt'), { allowed: inRoot, directory: true })).rejects.toMatchObject({
      code: 'ENOTDIR',
    });
  });
});

describe.skipIf(!fdPathsWork())('descriptor paths (/proc)', () => {
  it('an open descriptor keeps its real place after the name is swapped for a link', async () => {
    const file = join(root, 'swap.txt');
    writeFileSync(file, 'v1');
    const fh = await Descriptor.open(file, constants.O_RDONLY);
    try {
      unlinkSync(file);
      symlinkSync(join(outside, 'secret.txt'), file);
      // The opened object was unlinked: it is nowhere now, and never the link's target.
      expect(descriptorPath(fh.fd)).toBeUndefined();
    } finally {
      await fh.close();
      unlinkSync(file);
    }
  });

  it('childOf names a child of exactly the open folder', async () => {
    const dir = await openChecked(join(root, 'sub'), { allowed: inRoot, directory: true });
    try {
      writeFileSync(join(root, 'sub', 'c.txt'), 'child');
      expect(readFileSync(childOf(dir, 'c.txt'), 'utf8')).toBe('child');
      expect(descriptorPath(dir.fd)).toBe(join(root, 'sub'));
    } finally {
      await dir.close();
    }
  });
});

describe('readRegularHandle', () => {
  it('reads a regular file through its handle', async () => {
    const fh = await Descriptor.open(join(root, 'a.txt'), constants.O_RDONLY);
    try {
      expect((await readRegularHandle(fh, 'a.txt')).toString()).toBe('inside');
    } finally {
      await fh.close();
    }
  });

  it("with the caller's stat: the file as it is now, whether it shrank, grew or reported no size", async () => {
    const file = join(root, 'changing.txt');
    writeFileSync(file, 'long enough text');
    const fh = await Descriptor.open(file, constants.O_RDONLY);
    try {
      const st = await fh.stat();
      truncateSync(file, 4);
      expect((await readRegularHandle(fh, file, st)).toString()).toBe('long');
    } finally {
      await fh.close();
    }
    writeFileSync(file, '');
    const empty = await Descriptor.open(file, constants.O_RDONLY);
    try {
      const st = await empty.stat();
      writeFileSync(file, 'written after the stat');
      expect((await readRegularHandle(empty, file, st)).toString()).toBe('written after the stat');
    } finally {
      await empty.close();
    }
  });

  it('a device is not a regular file: EINVAL, never read', async () => {
    await expect(readChecked('/dev/zero', () => true)).rejects.toMatchObject({ code: 'EINVAL' });
  });
});

describe('Descriptor', () => {
  it('a failed open, stat or read rejects (never throws) with the system error', async () => {
    const missing = Descriptor.open(join(root, 'no-such-file'), constants.O_RDONLY);
    await expect(missing).rejects.toMatchObject({ code: 'ENOENT' });
    const dir = await Descriptor.open(join(root, 'sub'), constants.O_RDONLY);
    try {
      await expect(dir.read(Buffer.alloc(4), 0, 4, 0)).rejects.toMatchObject({ code: 'EISDIR' });
    } finally {
      await dir.close();
    }
    await expect(dir.stat()).rejects.toMatchObject({ code: 'EBADF' });
  });

  it('closes once: a second close does nothing, and the number is not closed again under a later open', async () => {
    const first = await Descriptor.open(join(root, 'a.txt'), constants.O_RDONLY);
    await first.close();
    // The system hands the freed number to the next open; closing `first` again must not close this one.
    const second = await Descriptor.open(join(root, 'a.txt'), constants.O_RDONLY);
    try {
      await first.close();
      expect((await second.stat()).size).toBe(6);
      expect((await second.readFile()).toString()).toBe('inside');
    } finally {
      await second.close();
    }
  });

  it("a text stream of the whole file leaves the descriptor open for the owner's close", async () => {
    const fh = await Descriptor.open(join(root, 'a.txt'), constants.O_RDONLY);
    try {
      let text = '';
      for await (const chunk of fh.textStream()) text += chunk;
      expect(text).toBe('inside');
      expect((await fh.stat()).isFile()).toBe(true);
    } finally {
      await fh.close();
    }
  });
});
