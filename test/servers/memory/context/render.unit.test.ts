import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContext, renderBlock } from '../../../../servers/memory/context/render.js';
import { tempDir } from '../../../helpers/tmp.js';

describe('renderBlock', () => {
  it("Gemini CLI's markers around a file's content", () => {
    expect(renderBlock('/p/GEMINI.md', 'rules')).toBe(
      '--- Context from: /p/GEMINI.md ---\nrules\n--- End of Context from: /p/GEMINI.md ---',
    );
  });
});

describe('loadContext', () => {
  it('global then project files, imports processed, empty files left out, every file read reported', async () => {
    const base = tempDir('gmc-render-');
    const globalDir = join(base, 'home', '.gemini');
    const repo = join(base, 'repo');
    mkdirSync(globalDir, { recursive: true });
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'docs'));
    writeFileSync(join(globalDir, 'GEMINI.md'), '  global  \n');
    writeFileSync(join(repo, 'GEMINI.md'), 'project @docs/style.md @GEMINI.md');
    writeFileSync(join(repo, 'docs', 'style.md'), 'style');
    writeFileSync(join(repo, 'AGENTS.md'), '\n\n');
    const ctx = await loadContext({
      globalFiles: [join(globalDir, 'GEMINI.md')],
      roots: [repo],
      fileNames: ['GEMINI.md', 'AGENTS.md'],
      globalDir,
    });
    expect(ctx.text).toBe(
      [
        renderBlock(join(globalDir, 'GEMINI.md'), 'global'),
        renderBlock(
          join(repo, 'GEMINI.md'),
          'project <!-- Imported from: docs/style.md -->\nstyle\n<!-- End of import from: docs/style.md --> <!-- File already processed: GEMINI.md -->',
        ),
      ].join('\n\n'),
    );
    expect(ctx.files.map((f) => f.path)).toEqual([join(globalDir, 'GEMINI.md'), join(repo, 'GEMINI.md')]);
    expect(ctx.touched).toEqual([
      join(globalDir, 'GEMINI.md'),
      join(repo, 'GEMINI.md'),
      join(repo, 'docs', 'style.md'),
      join(repo, 'AGENTS.md'),
    ]);
  });
});
