import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs, errorTypeOf, firstText } from './connect.js';

/** Awkward files and arguments: each gets the contract's error or notice, and the server keeps serving. */
describe('filesystem tools on bad input', () => {
  it('refuses FIFOs instead of blocking on them', async () => {
    const root = tempDir();
    const fifo = join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(root, 'ok.txt'), 'still here\n');
    const fs = await connectFs({ roots: [root] });
    const read = await fs.call('read_file', { absolute_path: fifo });
    expect([firstText(read), errorTypeOf(read)]).toEqual([
      `Error reading file ${fifo}: EINVAL: not a regular file, read '${fifo}'`,
      'read_content_failure',
    ]);
    const write = await fs.call('write_file', { file_path: fifo, content: 'x' });
    expect([firstText(write), errorTypeOf(write)]).toEqual([
      `Error checking existing file '${fifo}': EINVAL: not a regular file, read '${fifo}' (EINVAL)`,
      'file_write_failure',
    ]);
    const edit = await fs.call('replace', { file_path: fifo, old_string: 'a', new_string: 'b' });
    expect([firstText(edit), errorTypeOf(edit)]).toEqual([
      `Error preparing edit: EINVAL: not a regular file, read '${fifo}'`,
      'edit_preparation_failure',
    ]);
    expect(await fs.text('read_many_files', { paths: ['*'] })).toBe(
      `--- ${join(root, 'ok.txt')} ---\n\nstill here\n\n\n\n--- End of content ---`,
    );
    expect(await fs.text('search_file_content', { pattern: 'still' })).toContain('File: ok.txt\nL1: still here');
  });

  it('treats a path below a file as missing for read_file', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'f.txt'), 'x');
    const fs = await connectFs({ roots: [root] });
    const p = join(root, 'f.txt', 'child.txt');
    const r = await fs.call('read_file', { absolute_path: p });
    expect([firstText(r), errorTypeOf(r)]).toEqual([`File not found: ${p}`, 'file_not_found']);
  });

  it('reads non-UTF-8 text lossily, and binary content as a notice everywhere', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    writeFileSync(join(root, 'blob.dat'), Buffer.from([0x00, 0x01, 0x02, 0x63, 0x61, 0x66]));
    writeFileSync(join(root, 'empty.txt'), '');
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('read_file', { absolute_path: join(root, 'latin1.txt') })).toBe('caf\uFFFD\n');
    expect(await fs.text('search_file_content', { pattern: '^caf' })).toBe(
      'Found 1 match for pattern "^caf" in the workspace directory:\n---\nFile: latin1.txt\nL1: caf\uFFFD\nL2- \n---',
    );
    expect(await fs.text('read_many_files', { paths: ['blob.dat', 'empty.txt'] })).toBe(
      `--- ${join(root, 'blob.dat')} ---\n\nCannot display content of binary file: blob.dat\n\n` +
        `--- ${join(root, 'empty.txt')} ---\n\n\n\n\n--- End of content ---`,
    );
    const emptyEdit = await fs.call('replace', {
      file_path: join(root, 'empty.txt'),
      old_string: 'x',
      new_string: 'y',
    });
    expect(errorTypeOf(emptyEdit)).toBe('edit_no_occurrence_found');
  });

  it('refuses media over the 6MB inline limit with the contract text', async () => {
    const root = tempDir();
    const png = join(root, 'big.png');
    writeFileSync(png, Buffer.alloc(7 * 1024 * 1024, 1));
    const fs = await connectFs({ roots: [root] });
    const r = await fs.call('read_file', { absolute_path: png });
    expect([firstText(r), errorTypeOf(r)]).toEqual([
      `File size exceeds the 6MB limit: ${png} (7.00MB)`,
      'file_too_large',
    ]);
  });

  it('reports a directory given to replace as a preparation failure', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'd'));
    const fs = await connectFs({ roots: [root] });
    const r = await fs.call('replace', { file_path: join(root, 'd'), old_string: 'a', new_string: 'b' });
    expect([firstText(r), errorTypeOf(r)]).toEqual([
      'Error preparing edit: EISDIR: illegal operation on a directory, read',
      'edit_preparation_failure',
    ]);
  });

  it('keeps CRLF through replace when old_string spans lines, and returns LF to read_file', async () => {
    const root = tempDir();
    const file = join(root, 'win.txt');
    writeFileSync(file, 'one\r\ntwo\r\nthree\r\n');
    const fs = await connectFs({ roots: [root] });
    const r = await fs.call('replace', { file_path: file, old_string: 'one\ntwo', new_string: '1\n2' });
    expect(firstText(r)).toBe(
      `Successfully modified file: ${file} (1 replacements). Here is the updated code:\n1\n2\nthree\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('1\r\n2\r\nthree\r\n');
    expect(await fs.text('read_file', { absolute_path: file })).toBe('1\n2\nthree\n');
  });

  it('keeps glob inside its search directory for absolute and climbing patterns', async () => {
    const root = tempDir();
    const sibling = tempDir();
    writeFileSync(join(root, 'in.txt'), 'in');
    writeFileSync(join(sibling, 'out.txt'), 'out');
    const old = Date.now() / 1000 - 3 * 24 * 3600;
    utimesSync(join(root, 'in.txt'), old, old);
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('glob', { pattern: join(root, '*.txt') })).toBe(
      `Found 1 file(s) matching "${join(root, '*.txt')}" within ${root}, sorted by modification time (newest first):\n${join(root, 'in.txt')}`,
    );
    expect(await fs.text('glob', { pattern: '../**/*.txt' })).toBe(
      `No files found matching pattern "../**/*.txt" within ${root}`,
    );
    expect(await fs.text('glob', { pattern: join(sibling, '*.txt') })).toBe(
      `No files found matching pattern "${join(sibling, '*.txt')}" within ${root}`,
    );
  });

  it('applies the owning root’s ignore rules to read_many_files entries reaching into another root', async () => {
    const first = tempDir();
    const second = tempDir();
    mkdirSync(join(second, '.git'));
    writeFileSync(join(second, '.gitignore'), 'hidden.txt\n');
    writeFileSync(join(second, 'hidden.txt'), 'ignored');
    writeFileSync(join(second, 'shown.txt'), 'shown');
    const fs = await connectFs({ roots: [first, second] });
    const r = await fs.call('read_many_files', { paths: [join(second, '*.txt')] });
    expect(firstText(r)).toBe(`--- ${join(second, 'shown.txt')} ---\n\nshown\n\n\n--- End of content ---`);
  });

  it('lists a broken symlink silently and survives a symlink loop', async () => {
    const root = tempDir();
    symlinkSync(join(root, 'nowhere'), join(root, 'broken'));
    symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
    symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
    writeFileSync(join(root, 'a.txt'), 'a');
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('list_directory', { path: root })).toBe(`Directory listing for ${root}:\na.txt (1 bytes)`);
    const loop = await fs.call('read_file', { absolute_path: join(root, 'loop-a') });
    expect(loop.isError).toBe(true);
    expect(await fs.text('read_file', { absolute_path: join(root, 'a.txt') })).toBe('a');
  });
});
