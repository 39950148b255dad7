import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { startMemory } from './harness.js';

const uri = (p: string) => `gemini-memory://context-for?path=${encodeURIComponent(p)}`;

describe('memory server: context for a path (just-in-time subdirectory context)', () => {
  it('returns the files between the root and the path, outermost first, with each configured name; nothing outside the roots', async () => {
    const home = tempDir('mem-jit-home-');
    const root = tempDir('mem-jit-root-');
    const outside = tempDir('mem-jit-out-');
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(root, 'AGENTS.md'), 'root: in the start-up context, not here');
    writeFileSync(join(root, 'a', 'AGENTS.md'), 'a rule');
    writeFileSync(join(root, 'a', 'b', 'CONTEXT.md'), 'b rule');
    writeFileSync(join(outside, 'AGENTS.md'), 'outside rule');
    symlinkSync(outside, join(root, 'a', 'escape'));
    const s = await startMemory(home, root, {
      args: ['--context-file-name', 'AGENTS.md', '--context-file-name', 'CONTEXT.md'],
    });
    const read = async (p: string) =>
      (await s.client.readResource({ uri: uri(p) })).contents.map((c) => [c.uri, (c as { text: string }).text]);
    const got = await read(join(root, 'a', 'b', 'new-file.ts')); // not written yet: its directory counts
    expect(got.map(([u]) => u)).toEqual([
      `file://${join(root, 'a', 'AGENTS.md')}`,
      `file://${join(root, 'a', 'b', 'CONTEXT.md')}`,
    ]);
    expect(got[0]![1]).toContain('a rule');
    expect(await read(root)).toEqual([]);
    expect(await read(join(outside, 'x.txt'))).toEqual([]);
    expect(await read(join(root, 'a', 'escape', 'x.txt'))).toEqual([]); // a symlink out of the root is outside
    expect((await s.client.readResource({ uri: 'gemini-memory://context-for?path=relative%2Fpath' })).contents).toEqual(
      [],
    );
  });

  it('a context file that links out of the root is not returned; one linking inside it is', async () => {
    const home = tempDir('mem-jit-home-');
    const root = tempDir('mem-jit-root-');
    const outside = tempDir('mem-jit-out-');
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'TOKEN-outside-91');
    writeFileSync(join(root, 'shared-rules.md'), 'shared rule');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'a', 'GEMINI.md'));
    symlinkSync(join(root, 'shared-rules.md'), join(root, 'a', 'b', 'GEMINI.md'));
    const s = await startMemory(home, root);
    const got = (await s.client.readResource({ uri: uri(join(root, 'a', 'b', 'x.ts')) })).contents;
    expect(got.map((c) => c.uri)).toEqual([`file://${join(root, 'a', 'b', 'GEMINI.md')}`]);
    expect((got[0] as { text: string }).text).toContain('shared rule');
  });
});
