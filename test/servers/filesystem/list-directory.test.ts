import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs, errorTypeOf, firstText } from './connect.js';

describe('list_directory', () => {
  it('lists directories first, files with sizes, in locale order', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'sub'));
    mkdirSync(join(root, 'Zdir'));
    writeFileSync(join(root, 'b.txt'), 'bb');
    writeFileSync(join(root, 'a.txt'), 'a');
    writeFileSync(join(root, 'C.md'), 'ccc');
    const fs = await connectFs({ roots: [root] });
    const r = await fs.call('list_directory', { path: root, wait_for_previous: true });
    expect(r.isError).toBeFalsy();
    expect(firstText(r)).toBe(
      `Directory listing for ${root}:\n[DIR] sub\n[DIR] Zdir\na.txt (1 bytes)\nb.txt (2 bytes)\nC.md (3 bytes)`,
    );
  });

  it('a folder of many entries is listed whole, its links sized through, its broken links and ignored names left out', async () => {
    const root = tempDir();
    writeFileSync(join(root, '.gitignore'), 'skip-*\n');
    mkdirSync(join(root, '.git'));
    const names: string[] = [];
    for (let i = 0; i < 700; i++) {
      const name = `f${String(i).padStart(3, '0')}.txt`;
      writeFileSync(join(root, name), 'x'.repeat(i % 7));
      names.push(name);
    }
    for (let i = 0; i < 5; i++) writeFileSync(join(root, `skip-${i}`), '');
    symlinkSync(join(root, 'f001.txt'), join(root, 'zz-link'));
    symlinkSync(join(root, 'no-such-file'), join(root, 'zz-broken'));
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('list_directory', { path: root });
    const lines = text.split('\n');
    expect(lines[0]).toBe(`Directory listing for ${root}:`);
    const files = lines.filter((l) => /^f\d{3}\.txt /.test(l));
    expect(files).toEqual(names.map((n, i) => `${n} (${i % 7} bytes)`));
    expect(lines).toContain('zz-link (1 bytes)');
    expect(text).not.toMatch(/zz-broken|skip-/);
    // The five skip- files and .git.
    expect(text).toMatch(/\(6 ignored\)$/);
  });

  it('validates and reports errors with the contract texts', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'empty'));
    writeFileSync(join(root, 'f.txt'), 'x');
    const fs = await connectFs({ roots: [root] });
    const rel = await fs.call('list_directory', { path: 'sub' });
    expect(rel.isError).toBe(true);
    expect(firstText(rel)).toBe('Path must be absolute: sub');
    expect(await fs.text('list_directory', { path: join(root, 'empty') })).toBe(
      `Directory ${join(root, 'empty')} is empty.`,
    );
    const file = await fs.call('list_directory', { path: join(root, 'f.txt') });
    expect(firstText(file)).toBe(`Error: Path is not a directory: ${join(root, 'f.txt')}`);
    expect(errorTypeOf(file)).toBe('path_is_not_a_directory');
    const missing = await fs.call('list_directory', { path: join(root, 'nope') });
    expect(missing.isError).toBe(true);
    expect(errorTypeOf(missing)).toBe('ls_execution_error');
    expect(firstText(missing)).toMatch(/^Error listing directory: /);
    const missingParam = await fs.call('list_directory', {});
    expect(missingParam.isError).toBe(true);
    expect(firstText(missingParam)).toContain('path');
  });

  it('hides and counts git- and gemini-ignored entries; ignore globs are not counted', async () => {
    const root = tempDir();
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'dist'));
    writeFileSync(join(root, '.gitignore'), 'dist/\n*.log\n');
    writeFileSync(join(root, '.geminiignore'), 'secret.md\n');
    writeFileSync(join(root, 'app.log'), 'l');
    writeFileSync(join(root, 'secret.md'), 's');
    writeFileSync(join(root, 'a.txt'), 'a');
    writeFileSync(join(root, 'keep.ts'), 'k');
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('list_directory', { path: root });
    // .git, dist, app.log, secret.md
    expect(text).toBe(
      `Directory listing for ${root}:\n.geminiignore (10 bytes)\n.gitignore (12 bytes)\na.txt (1 bytes)\nkeep.ts (1 bytes)\n\n(4 ignored)`,
    );
    const noGit = await fs.text('list_directory', { path: root, respect_git_ignore: false });
    expect(noGit).toContain('[DIR] dist');
    expect(noGit).toContain('app.log (1 bytes)');
    expect(noGit).not.toContain('secret.md');
    const globbed = await fs.text('list_directory', { path: root, ignore: ['*.txt', '.git*', '.gemini*'] });
    expect(globbed).toBe(`Directory listing for ${root}:\nkeep.ts (1 bytes)\n\n(4 ignored)`);
  });

  it('prints an empty listing with the count when everything is ignored', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'd', 'x.txt'), 'x');
    writeFileSync(join(root, '.geminiignore'), 'd/\n');
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('list_directory', { path: join(root, 'd') })).toBe(
      `Directory listing for ${join(root, 'd')}:\n\n\n(1 ignored)`,
    );
  });
});
