import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { startMemory } from './harness.js';

describe('memory server: a context file flipped to a link while it is read', () => {
  it('never sends what a link out of the project names, however the flips fall (bounded race)', async () => {
    const home = tempDir('race-home-');
    const root = tempDir('race-root-');
    const outside = tempDir('race-out-');
    writeFileSync(join(outside, 'id_rsa'), 'PRIVATE-KEY-race-5c1\n');
    writeFileSync(join(root, 'plain.md'), 'project rule\n');
    symlinkSync(join(outside, 'id_rsa'), join(root, 'evil-link'));
    const s = await startMemory(home, root);
    const file = join(root, 'GEMINI.md');
    writeFileSync(file, 'project rule\n');
    // Swap GEMINI.md between a file of the project and a link to the key, atomically, as fast as it goes.
    let flips = 0;
    let stop = false;
    const flipper = (async () => {
      while (!stop) {
        writeFileSync(join(root, 'tmp-plain'), 'project rule\n');
        renameSync(join(root, flips % 2 ? 'tmp-plain' : 'evil-link'), file);
        if (flips % 2 === 0) symlinkSync(join(outside, 'id_rsa'), join(root, 'evil-link'));
        flips++;
        await new Promise<void>((r) => setImmediate(r));
      }
    })();
    const texts: string[] = [];
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      const res = await s.client.readResource({ uri: 'gemini-memory://context' });
      texts.push(res.contents.map((c) => (c as { text?: string }).text ?? '').join(''));
    }
    stop = true;
    await flipper;
    expect(flips).toBeGreaterThan(20);
    expect(texts.length).toBeGreaterThan(5);
    expect(texts.some((t) => t.includes('project rule'))).toBe(true);
    expect(texts.filter((t) => t.includes('PRIVATE-KEY-race-5c1'))).toEqual([]);
  });
});
