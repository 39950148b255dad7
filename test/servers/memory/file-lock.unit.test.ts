import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../../servers/memory/file-lock.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-lock-');

/** A pid no process has: past the kernel's largest pid number. */
const DEAD_PID = 4_194_304 + 7;

describe('withFileLock', () => {
  it('holds <file>.lock while fn runs, returns its value, and removes the lock', async () => {
    const file = join(base, 'a', 'GEMINI.md');
    const seen = await withFileLock(file, async () => existsSync(`${file}.lock`));
    expect(seen).toBe(true);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('removes the lock when fn throws, and passes the error on', async () => {
    const file = join(base, 'b.md');
    await expect(
      withFileLock(file, async () => {
        throw new Error('inner');
      }),
    ).rejects.toThrow('inner');
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('two holders in one process never overlap: the second waits until the first lets go', async () => {
    const file = join(base, 'c.md');
    const events: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let entered!: () => void;
    const firstIn = new Promise<void>((r) => {
      entered = r;
    });
    const first = withFileLock(file, async () => {
      events.push('first in');
      entered();
      await gate;
      events.push('first out');
    });
    // The second asks only once the first holds the lock (which of two simultaneous asks wins is the
    // file system's choice, not the lock's promise).
    await firstIn;
    const second = withFileLock(file, async () => {
      events.push('second in');
    });
    // Long enough for several of the second's retries: it must still be waiting.
    await new Promise<void>((r) => setTimeout(r, 50));
    expect(events).toEqual(['first in']);
    release();
    await Promise.all([first, second]);
    expect(events).toEqual(['first in', 'first out', 'second in']);
  });

  it('a lock left by a process of this host that is gone is taken over', async () => {
    const file = join(base, 'd.md');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: DEAD_PID, host: hostname(), time: Date.now() }));
    expect(await withFileLock(file, async () => 'ran')).toBe('ran');
  });

  it('a stale lock (older than ten seconds) is taken over even from a live or foreign owner', async () => {
    const file = join(base, 'e.md');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid: 1, host: 'other-host', time: 0 }));
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    expect(await withFileLock(file, async () => 'ran')).toBe('ran');
  });

  it('a lock path it cannot create is an error at once, not a wait', async () => {
    const file = join(base, 'not-a-dir');
    writeFileSync(file, '');
    await expect(withFileLock(join(file, 'GEMINI.md'), async () => 'x')).rejects.toMatchObject({
      code: expect.stringMatching(/^(EEXIST|ENOTDIR)$/),
    });
  });
});
