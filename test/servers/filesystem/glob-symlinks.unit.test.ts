import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs } from './connect.js';

/**
 * Patterns that name a symlinked directory (`link-dir/*`) or climb through one (`sub/up/outside/*` with
 * `up → ../..`) must not list what lies behind it: results are confined by real path and symlinked
 * directories are never walked.
 */
describe('glob and read_many_files through symlinked directories', () => {
  const base = tempDir('gmc-globlink-');
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(join(outside, 'deeper'), { recursive: true });
  writeFileSync(join(outside, 'leaked-name.txt'), 'outside secret\n');
  writeFileSync(join(outside, 'deeper', 'leaked-deep.txt'), 'outside secret\n');
  writeFileSync(join(root, 'sub', 'inside.txt'), 'inside\n');
  symlinkSync(outside, join(root, 'link-dir'));
  symlinkSync('../..', join(root, 'sub', 'up'));
  symlinkSync(join(root, 'sub'), join(root, 'inner-link'));

  const patterns = [
    'link-dir/*',
    'link-dir/**',
    'link-dir/**/*.txt',
    'link-dir/leaked-name.txt',
    'link-dir/deeper/*',
    'sub/up/outside/*',
    'sub/up/outside/**',
    'sub/up/outside/leaked-name.txt',
    'inner-link/*',
  ];

  it.each(patterns)('glob %s names nothing behind a symlinked directory', async (pattern) => {
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('glob', { pattern });
    expect(text).toMatch(/^No files found matching pattern/);
    expect(text.split('\n')).toHaveLength(1);
  });

  it('still finds real files next to the links', async () => {
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('glob', { pattern: '**/*.txt' });
    expect(text.split('\n').slice(1)).toEqual([join(root, 'sub', 'inside.txt')]);
  });

  it.each(patterns)('read_many_files %s reads and names nothing behind a symlinked directory', async (pattern) => {
    const fs = await connectFs({ roots: [root] });
    const r = await fs.call('read_many_files', { paths: [pattern] });
    const all = JSON.stringify(r);
    expect(all).not.toContain('outside secret');
    expect(all).not.toContain('leaked-deep');
    if (!pattern.includes('leaked-name')) expect(all).not.toContain('leaked-name');
  });
});
