import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs, errorTypeOf, firstText } from './connect.js';

/**
 * The conventions every filesystem tool shares, exercised through each: unknown keys ignored, missing
 * parameters named, no roots means no paths, sensitive segments refused, malformed paths explained.
 */

const outsideMsg = (p: string, roots: string[]) =>
  `Path not in workspace: Attempted path "${p}" resolves outside the allowed workspace directories: ${roots.join(', ')}`;

describe('filesystem conventions', () => {
  it('ignores unknown argument keys on every tool', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    const fs = await connectFs({ roots: [root] });
    const extra = { wait_for_previous: true, surprise: { nested: 1 } };
    const calls: [string, Record<string, unknown>][] = [
      ['list_directory', { path: root }],
      ['read_file', { absolute_path: join(root, 'a.txt') }],
      ['write_file', { file_path: join(root, 'b.txt'), content: 'beta\n' }],
      ['replace', { file_path: join(root, 'b.txt'), old_string: 'beta', new_string: 'gamma' }],
      ['search_file_content', { pattern: 'alpha' }],
      ['glob', { pattern: '*.txt' }],
      ['read_many_files', { paths: ['a.txt'] }],
    ];
    for (const [name, args] of calls) {
      const r = await fs.call(name, { ...args, ...extra });
      expect([name, r.isError ?? false]).toEqual([name, false]);
    }
  });

  it('reports each missing required parameter by name, as invalid_tool_params', async () => {
    const root = tempDir();
    const fs = await connectFs({ roots: [root] });
    const cases: [string, Record<string, unknown>, string][] = [
      ['list_directory', {}, 'path'],
      ['read_file', {}, 'absolute_path'],
      ['write_file', { file_path: join(root, 'x') }, 'content'],
      ['write_file', { content: 'x' }, 'file_path'],
      ['replace', { file_path: join(root, 'x'), old_string: 'a' }, 'new_string'],
      ['replace', { file_path: join(root, 'x'), new_string: 'a' }, 'old_string'],
      ['search_file_content', {}, 'pattern'],
      ['glob', {}, 'pattern'],
      ['read_many_files', {}, 'paths'],
    ];
    for (const [name, args, param] of cases) {
      const r = await fs.call(name, args);
      expect([name, r.isError, errorTypeOf(r)]).toEqual([name, true, 'invalid_tool_params']);
      expect(firstText(r)).toContain(param);
    }
    expect(existsSync(join(root, 'x'))).toBe(false);
  });

  it('fails every path-taking call without roots', async () => {
    const fs = await connectFs({ roots: [] });
    const calls: [string, Record<string, unknown>][] = [
      ['list_directory', { path: '/tmp' }],
      ['read_file', { absolute_path: '/tmp/x.txt' }],
      ['write_file', { file_path: '/tmp/gmc-no-roots.txt', content: 'x' }],
      ['replace', { file_path: '/tmp/gmc-no-roots.txt', old_string: '', new_string: 'x' }],
      ['search_file_content', { pattern: 'x' }],
      ['glob', { pattern: '*' }],
      ['read_many_files', { paths: ['*'] }],
    ];
    for (const [name, args] of calls) {
      const r = await fs.call(name, args);
      expect([name, r.isError, firstText(r), errorTypeOf(r)]).toEqual([
        name,
        true,
        'No workspace roots are configured.',
        'path_not_in_workspace',
      ]);
    }
    expect(existsSync('/tmp/gmc-no-roots.txt')).toBe(false);
  });

  it('refuses sensitive segments for reads and writes, allows their look-alikes', async () => {
    const root = tempDir();
    for (const d of ['.git', 'node_modules/a', '.GIT']) mkdirSync(join(root, d), { recursive: true });
    const refused = ['.git/config', '.env', 'node_modules/a/index.js', 'gha-creds-1.json', '.GIT/x', '.env.'];
    for (const f of refused) writeFileSync(join(root, f), 'secret');
    writeFileSync(join(root, '.env.example'), 'A=1\n');
    writeFileSync(join(root, '.gitignore'), 'tmp/\n');
    const fs = await connectFs({ roots: [root] });
    for (const f of refused) {
      const p = join(root, f);
      const read = await fs.call('read_file', { absolute_path: p });
      expect([firstText(read), errorTypeOf(read)]).toEqual([outsideMsg(p, [root]), 'path_not_in_workspace']);
      const write = await fs.call('write_file', { file_path: p, content: 'pwned' });
      expect(firstText(write)).toBe(outsideMsg(p, [root]));
      const edit = await fs.call('replace', { file_path: p, old_string: 'secret', new_string: 'pwned' });
      expect(firstText(edit)).toBe(outsideMsg(p, [root]));
    }
    expect(await fs.text('read_file', { absolute_path: join(root, '.env.example') })).toBe('A=1\n');
    expect(await fs.text('read_file', { absolute_path: join(root, '.gitignore') })).toBe('tmp/\n');
    const search = await fs.text('search_file_content', { pattern: 'secret|pwned' });
    expect(search).toBe('No matches found for pattern "secret|pwned" in the workspace directory.');
  });

  it('gives the pre-flight reasons for malformed paths on every path parameter', async () => {
    const root = tempDir();
    const fs = await connectFs({ roots: [root] });
    const newline = 'Invalid path: Path contains invalid characters (newlines or control characters).';
    const component = `Invalid path: Path component "${'y'.repeat(20)}..." is too long (maximum 255 characters).`;
    const long = join(root, 'y'.repeat(256));
    const cases: [string, Record<string, unknown>, string][] = [
      ['read_file', { absolute_path: `${root}/a\nb.txt` }, newline],
      ['write_file', { file_path: `${root}/a\nb.txt`, content: 'x' }, newline],
      ['replace', { file_path: `${root}/a\tb.txt`, old_string: '', new_string: 'x' }, newline],
      ['list_directory', { path: `${root}/a\rb` }, newline],
      ['read_file', { absolute_path: long }, component],
      ['write_file', { file_path: long, content: 'x' }, component],
      ['glob', { pattern: '*', path: long }, component],
      ['search_file_content', { pattern: 'x', path: long }, component],
    ];
    for (const [name, args, msg] of cases) {
      const r = await fs.call(name, args);
      expect([name, r.isError, firstText(r), errorTypeOf(r)]).toEqual([name, true, msg, 'invalid_tool_params']);
    }
  });
});
