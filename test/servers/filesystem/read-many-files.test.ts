import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs, firstText } from './connect.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function tree(): string {
  const root = tempDir();
  mkdirSync(join(root, 'dist'));
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  writeFileSync(join(root, 'a.txt'), 'hello world\nsecond line\n');
  writeFileSync(join(root, 'b.txt'), 'bee');
  writeFileSync(join(root, 'dist', 'out.txt'), 'built');
  writeFileSync(join(root, 'arch.zip'), 'PK');
  writeFileSync(join(root, '.env'), 'SECRET=1');
  writeFileSync(join(root, 'GEMINI.md'), 'ctx');
  writeFileSync(join(root, 'src', 'one.ts'), 'one');
  writeFileSync(join(root, 'src', 'deep', 'two.ts'), 'two');
  writeFileSync(join(root, 'pic.png'), PNG);
  return root;
}

describe('read_many_files', () => {
  it('concatenates text files in path order', async () => {
    const root = tree();
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('read_many_files', { paths: ['*.txt'] });
    expect(text).toBe(
      `--- ${join(root, 'a.txt')} ---\n\nhello world\nsecond line\n\n\n--- ${join(root, 'b.txt')} ---\n\nbee\n\n\n--- End of content ---`,
    );
  });

  it('warns about truncated files', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'long.txt'), Array.from({ length: 2100 }, (_, i) => `x${i}`).join('\n'));
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('read_many_files', { paths: ['long.txt'] });
    expect(text).toContain(
      "\n\n[WARNING: This file was truncated. To view the full content, use the 'read_file' tool on this specific file.]\n\nx0\n",
    );
    expect(text).toContain('\nx1999\n\n\n--- End of content ---');
    expect(text).not.toContain('x2000');
  });

  it('applies default excludes, exclude and include', async () => {
    const root = tree();
    const fs = await connectFs({ roots: [root] });
    const all = await fs.text('read_many_files', { paths: ['**/*'] });
    for (const hidden of ['dist/out.txt', 'arch.zip', '.env', 'GEMINI.md', 'pic.png'])
      expect(all).not.toContain(`${join(root, hidden)} ---`);
    expect(all).toContain(`${join(root, 'src/deep/two.ts')} ---`);
    const noDefaults = await fs.call('read_many_files', { paths: ['**/*'], useDefaultExcludes: false });
    expect(firstText(noDefaults)).toContain(`${join(root, 'dist/out.txt')} ---`);
    expect(firstText(noDefaults)).not.toContain('SECRET');
    const excluded = await fs.text('read_many_files', { paths: ['*.txt'], exclude: ['b.*'], include: ['src/one.ts'] });
    expect(excluded).not.toContain('bee');
    expect(excluded).toContain(`${join(root, 'src/one.ts')} ---`);
  });

  it('expands directories recursively or not', async () => {
    const root = tree();
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('read_many_files', { paths: ['src'] })).toContain('two');
    const flat = await fs.text('read_many_files', { paths: ['src'], recursive: false });
    expect(flat).toContain(`${join(root, 'src/one.ts')} ---`);
    expect(flat).not.toContain('two.ts');
  });

  it('returns images only when requested explicitly', async () => {
    const root = tree();
    const fs = await connectFs({ roots: [root] });
    const star = await fs.call('read_many_files', { paths: ['*'] });
    expect(star.content.every((c) => c.type === 'text')).toBe(true);
    const png = await fs.call('read_many_files', { paths: ['*.png'] });
    expect(png.content[0]).toEqual({ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' });
    expect(png.content[1]).toEqual({ type: 'text', text: '\n--- End of content ---' });
  });

  it('reports nothing found and rejects empty paths', async () => {
    const root = tree();
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('read_many_files', { paths: ['*.nothing'] })).toBe(
      'No files matching the criteria were found or all were skipped.',
    );
    const empty = await fs.call('read_many_files', { paths: [] });
    expect(empty.isError).toBe(true);
    expect(firstText(empty)).toContain('paths');
  });
});
