import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeRegions, processImports } from '../../../../servers/memory/context/import-processor.js';
import { tempDir } from '../../../helpers/tmp.js';

const base = tempDir('gmc-imports-');
const root = join(base, 'proj');
const outside = join(base, 'outside');
mkdirSync(join(root, 'docs', 'deep'), { recursive: true });
mkdirSync(join(base, 'proj-evil'));
mkdirSync(outside);
writeFileSync(join(root, 'docs', 'style.md'), 'Use tabs.');
writeFileSync(join(root, 'docs', 'nested.md'), 'Nested: @./deep/leaf.md');
writeFileSync(join(root, 'docs', 'deep', 'leaf.md'), 'Leaf.');
writeFileSync(join(root, 'a.md'), 'A then @./b.md');
writeFileSync(join(root, 'b.md'), 'B then @./a.md');
writeFileSync(join(outside, 'secret.md'), 'SECRET');
writeFileSync(join(base, 'proj-evil', 'x.md'), 'EVIL');
symlinkSync(join(outside, 'secret.md'), join(root, 'docs', 'link.md'));
symlinkSync(join(root, 'docs', 'style.md'), join(root, 'style-link.md'));
mkdirSync(join(root, 'chain'));
for (let i = 0; i < 8; i++) writeFileSync(join(root, 'chain', `${i}.md`), `level ${i} @./${i + 1}.md`);
writeFileSync(join(root, 'chain', '8.md'), 'bottom');

const run = (text: string, opts: { maxDepth?: number; onImport?: (p: string) => void } = {}) =>
  processImports(text, root, { projectRoot: root, ...opts });
const imported = (token: string, body: string) =>
  `<!-- Imported from: ${token} -->\n${body}\n<!-- End of import from: ${token} -->`;
const traversal = (token: string) => `<!-- Import failed: ${token} - Path traversal attempt -->`;

describe('processImports', () => {
  it('replaces @path with the file, framed; nested imports resolve from the importing file', async () => {
    // As in Gemini CLI, the token runs to the next space: a sentence's full stop is part of the path.
    expect(await run('See @./docs/style.md.')).toMatch(/^See <!-- Import failed: \.\/docs\/style\.md\. - ENOENT/);
    expect(await run('Style: @./docs/style.md')).toBe(`Style: ${imported('./docs/style.md', 'Use tabs.')}`);
    expect(await run('@docs/nested.md')).toBe(
      imported('docs/nested.md', `Nested: ${imported('./deep/leaf.md', 'Leaf.')}`),
    );
  });

  it('.. out of the project, absolute paths outside, prefix siblings and URLs are traversal attempts', async () => {
    const text = `@../outside/secret.md @${join(outside, 'secret.md')} @../proj-evil/x.md @https://x.org/a.md @file:///etc/passwd`;
    const out = await run(text);
    expect(out).not.toContain('SECRET');
    expect(out).not.toContain('EVIL');
    expect(out).toBe(
      [
        traversal('../outside/secret.md'),
        traversal(join(outside, 'secret.md')),
        traversal('../proj-evil/x.md'),
        traversal('https://x.org/a.md'),
        traversal('file:///etc/passwd'),
      ].join(' '),
    );
  });

  it('a missing file outside is a traversal attempt too, not a read error that names it', async () => {
    expect(await run('@../outside/none.md')).toBe(traversal('../outside/none.md'));
  });

  it('a link inside the project is judged by where it leads', async () => {
    expect(await run('@docs/link.md')).toBe(traversal('docs/link.md'));
    expect(await run('@style-link.md')).toBe(imported('style-link.md', 'Use tabs.'));
  });

  it('a cycle is reported where it closes, not followed', async () => {
    expect(await run('@a.md')).toBe(
      imported('a.md', `A then ${imported('./b.md', 'B then <!-- File already processed: ./a.md -->')}`),
    );
  });

  it('imports stop at the depth limit, leaving the deeper @path as written', async () => {
    const out = await run('@chain/0.md', { maxDepth: 3 });
    expect(out).toContain('level 2 @./3.md');
    expect(out).not.toContain('level 3');
    expect(await run('@chain/0.md', { maxDepth: 0 })).toBe('@chain/0.md');
  });

  it('@ inside code spans and fences, and e-mail addresses, are left alone', async () => {
    const text = 'Run `npm i @docs/style.md` and\n```\n@docs/style.md\n```\nmail me@docs/style.md';
    expect(await run(text)).toBe(text);
  });

  it('a folder, or a file that is not regular, fails by name without stopping the rest', async () => {
    const out = await run('@docs @/dev/null @docs/style.md');
    expect(out).toContain('<!-- Import failed: docs - not a regular file -->');
    expect(out).toContain(traversal('/dev/null'));
    expect(out).toContain(imported('docs/style.md', 'Use tabs.'));
  });

  it('reports every file read and every missing one inside the project, for change watching', async () => {
    const seen: string[] = [];
    await run('@docs/nested.md @docs/missing.md @../outside/secret.md', { onImport: (p) => seen.push(p) });
    expect(seen).toEqual([
      join(root, 'docs', 'nested.md'),
      join(root, 'docs', 'deep', 'leaf.md'),
      join(root, 'docs', 'missing.md'),
    ]);
  });
});

describe('codeRegions', () => {
  it('a fence closes only with the same character and at least its length; an open fence runs to the end', () => {
    const text = '~~~~\n@a\n~~~\n@b\n~~~~\n@c\n```\n@d';
    const inside = (s: string) => codeRegions(text).some(([a, b]) => text.indexOf(s) >= a && text.indexOf(s) < b);
    expect([inside('@a'), inside('@b'), inside('@c'), inside('@d')]).toEqual([true, true, false, true]);
  });
});
