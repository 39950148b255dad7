import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { subdirectoryContext } from '../../../../servers/memory/context/jit.js';
import { tempDir } from '../../../helpers/tmp.js';

const base = tempDir('gmc-jit-');
const root = join(base, 'proj');
const outside = join(base, 'outside');
for (const d of [join(root, 'pkg', 'sub'), join(root, 'empty'), outside, join(base, 'proj-evil')])
  mkdirSync(d, { recursive: true });
writeFileSync(join(root, 'GEMINI.md'), 'root rules');
writeFileSync(join(root, 'pkg', 'GEMINI.md'), 'pkg rules @./shared.md');
writeFileSync(join(root, 'pkg', 'shared.md'), 'shared');
writeFileSync(join(root, 'pkg', 'AGENTS.md'), '  ');
writeFileSync(join(root, 'pkg', 'sub', 'AGENTS.md'), 'sub rules');
writeFileSync(join(root, 'pkg', 'sub', 'file.ts'), 'x');
writeFileSync(join(outside, 'GEMINI.md'), 'OUTSIDE');
writeFileSync(join(base, 'proj-evil', 'GEMINI.md'), 'EVIL');
symlinkSync(outside, join(root, 'link-out'));
const names = ['GEMINI.md', 'AGENTS.md'];
const block = (path: string, text: string) =>
  `--- Context from: ${path} ---\n${text}\n--- End of Context from: ${path} ---`;

/** The files of an answer (what decides it is tested in the server's resource tests). */
const contextFiles = async (...a: Parameters<typeof subdirectoryContext>) => (await subdirectoryContext(...a)).files;

describe('subdirectoryContext', () => {
  it('context files between the root (excluded) and the target, outermost first, imports processed', async () => {
    const files = await contextFiles(join(root, 'pkg', 'sub', 'file.ts'), [root], names);
    expect(files).toEqual([
      {
        path: join(root, 'pkg', 'GEMINI.md'),
        text: block(
          join(root, 'pkg', 'GEMINI.md'),
          'pkg rules <!-- Imported from: ./shared.md -->\nshared\n<!-- End of import from: ./shared.md -->',
        ),
      },
      { path: join(root, 'pkg', 'sub', 'AGENTS.md'), text: block(join(root, 'pkg', 'sub', 'AGENTS.md'), 'sub rules') },
    ]);
  });

  it('a directory target includes its own files; a file about to be written counts from its nearest folder', async () => {
    expect((await contextFiles(join(root, 'pkg'), [root], names)).map((f) => f.path)).toEqual([
      join(root, 'pkg', 'GEMINI.md'),
    ]);
    expect((await contextFiles(join(root, 'pkg', 'sub', 'new', 'deep.ts'), [root], names)).map((f) => f.path)).toEqual([
      join(root, 'pkg', 'GEMINI.md'),
      join(root, 'pkg', 'sub', 'AGENTS.md'),
    ]);
  });

  it('the root itself, and paths outside every root, give nothing', async () => {
    expect(await contextFiles(join(root, 'x.ts'), [root], names)).toEqual([]);
    expect(await contextFiles(root, [root], names)).toEqual([]);
    expect(await contextFiles(join(outside, 'a.ts'), [root], names)).toEqual([]);
    expect(await contextFiles(join(base, 'proj-evil', 'a.ts'), [root], names)).toEqual([]);
    expect(await contextFiles(join(root, '..', 'outside', 'a.ts'), [root], names)).toEqual([]);
  });

  it('a link out of the root is judged where it leads: nothing from outside', async () => {
    expect(await contextFiles(join(root, 'link-out', 'a.ts'), [root], names)).toEqual([]);
  });

  it('with nested roots the innermost decides where loading starts', async () => {
    const files = await contextFiles(join(root, 'pkg', 'sub', 'file.ts'), [root, join(root, 'pkg')], names);
    expect(files.map((f) => f.path)).toEqual([join(root, 'pkg', 'sub', 'AGENTS.md')]);
  });
});
