import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs, errorTypeOf, firstText } from './connect.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const header = (s: number, e: number, t: number) =>
  `\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines ${s}-${e} of ${t} total lines.\n` +
  `Action: To read more of the file, you can use the 'offset' and 'limit' parameters in a subsequent 'read_file' call. ` +
  `For example, to read the next section of the file, use offset: ${e}.\n\n--- FILE CONTENT (truncated) ---\n`;

describe('read_file', () => {
  it('returns small, empty, CRLF and UTF-16 files as plain text', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'hello\nworld\n');
    writeFileSync(join(root, 'empty.txt'), '');
    writeFileSync(join(root, 'crlf.txt'), 'one\r\ntwo\r\n');
    writeFileSync(join(root, 'u16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo\n', 'utf16le')]));
    writeFileSync(join(root, 'u8bom.txt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('bom')]));
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('read_file', { absolute_path: join(root, 'a.txt') })).toBe('hello\nworld\n');
    const empty = await fs.call('read_file', { absolute_path: join(root, 'empty.txt') });
    expect(empty.content).toEqual([{ type: 'text', text: '' }]);
    expect(await fs.text('read_file', { absolute_path: join(root, 'crlf.txt') })).toBe('one\ntwo\n');
    expect(await fs.text('read_file', { absolute_path: join(root, 'u16.txt') })).toBe('héllo\n');
    expect(await fs.text('read_file', { absolute_path: join(root, 'u8bom.txt') })).toBe('bom');
  });

  it('validates in the contract order with exact messages', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'x');
    writeFileSync(join(root, '.gitignore'), 'ignored.txt\n');
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, 'ignored.txt'), 'x');
    const fs = await connectFs({ roots: [root] });
    const cases: [Record<string, unknown>, string][] = [
      [
        { absolute_path: 'a.txt' },
        'File path must be absolute, but was relative: a.txt. You must provide an absolute path.',
      ],
      [{ absolute_path: '  ' }, "The 'absolute_path' parameter must be non-empty."],
      [{ absolute_path: join(root, 'a.txt'), offset: -1 }, 'Offset must be a non-negative number'],
      [{ absolute_path: join(root, 'a.txt'), limit: 0 }, 'Limit must be a positive number'],
      [
        { absolute_path: join(root, 'ignored.txt') },
        `File path '${join(root, 'ignored.txt')}' is ignored by configured ignore patterns.`,
      ],
    ];
    for (const [args, msg] of cases) {
      const r = await fs.call('read_file', args);
      expect(r.isError).toBe(true);
      expect(errorTypeOf(r)).toBe('invalid_tool_params');
      expect(firstText(r)).toBe(msg);
    }
    const missing = await fs.call('read_file', {});
    expect(missing.isError).toBe(true);
    expect(firstText(missing)).toContain('absolute_path');
    expect(errorTypeOf(missing)).toBeDefined();
  });

  it('windows a file with offset/limit and floors numbers', async () => {
    const root = tempDir();
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    writeFileSync(join(root, 'twenty.txt'), lines.join('\n'));
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('read_file', { absolute_path: join(root, 'twenty.txt'), offset: 5.7, limit: 3 });
    expect(text).toBe(`${header(6, 8, 20)}line 6\nline 7\nline 8`);
    const past = await fs.text('read_file', { absolute_path: join(root, 'twenty.txt'), offset: 30 });
    expect(past).toBe(header(21, 20, 20));
    const tail = await fs.text('read_file', { absolute_path: join(root, 'twenty.txt'), offset: 18 });
    expect(tail).toBe(`${header(19, 20, 20)}line 19\nline 20`);
  });

  it('truncates at 2000 lines and cuts long lines', async () => {
    const root = tempDir();
    const lines = Array.from({ length: 2500 }, (_, i) => `l${i + 1}`);
    writeFileSync(join(root, 'big.txt'), `${lines.join('\n')}\n`);
    writeFileSync(join(root, 'wide.txt'), `${'x'.repeat(2500)}\nshort`);
    const fs = await connectFs({ roots: [root] });
    const big = await fs.text('read_file', { absolute_path: join(root, 'big.txt') });
    expect(big.startsWith(header(1, 2000, 2501))).toBe(true);
    expect(big.endsWith('\nl2000')).toBe(true);
    const wide = await fs.call('read_file', { absolute_path: join(root, 'wide.txt') });
    expect(firstText(wide)).toBe(`${header(1, 2, 2)}${'x'.repeat(2000)}... [truncated]\nshort`);
  });

  it('reports missing, directory and oversized files', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'd'));
    writeFileSync(join(root, 'huge.txt'), Buffer.alloc(21 * 1024 * 1024, 0x61));
    const fs = await connectFs({ roots: [root] });
    const m = await fs.call('read_file', { absolute_path: join(root, 'nope.txt') });
    expect([firstText(m), errorTypeOf(m)]).toEqual([`File not found: ${join(root, 'nope.txt')}`, 'file_not_found']);
    const d = await fs.call('read_file', { absolute_path: join(root, 'd') });
    expect([firstText(d), errorTypeOf(d)]).toEqual([
      `Path is a directory, not a file: ${join(root, 'd')}`,
      'target_is_directory',
    ]);
    const h = await fs.call('read_file', { absolute_path: join(root, 'huge.txt') });
    expect([firstText(h), errorTypeOf(h)]).toEqual([
      `File size exceeds the 20MB limit: ${join(root, 'huge.txt')} (21.00MB)`,
      'file_too_large',
    ]);
  });

  it('handles binary, image, PDF and unsupported audio', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'blob.dat'), Buffer.from([1, 2, 0, 4, 5]));
    writeFileSync(join(root, 'pic.png'), PNG);
    writeFileSync(join(root, 'doc.pdf'), '%PDF-1.4\n%%EOF\n');
    writeFileSync(join(root, 'song.mid'), 'MThd');
    writeFileSync(join(root, 'code.ts'), 'const a = 1;\n');
    const fs = await connectFs({ roots: [root] });
    expect(await fs.text('read_file', { absolute_path: join(root, 'sub', 'blob.dat') })).toBe(
      'Cannot display content of binary file: sub/blob.dat',
    );
    const png = await fs.call('read_file', { absolute_path: join(root, 'pic.png') });
    expect(png.content).toEqual([{ type: 'image', data: PNG.toString('base64'), mimeType: 'image/png' }]);
    const pdf = await fs.call('read_file', { absolute_path: join(root, 'doc.pdf') });
    expect(pdf.content).toHaveLength(1);
    expect(pdf.content[0]).toMatchObject({
      type: 'resource',
      resource: { mimeType: 'application/pdf', uri: `file://${join(root, 'doc.pdf')}` },
    });
    const mid = await fs.call('read_file', { absolute_path: join(root, 'song.mid') });
    expect(mid.isError).toBe(true);
    expect(firstText(mid)).toContain('Unsupported audio file format for');
    expect(await fs.text('read_file', { absolute_path: join(root, 'code.ts') })).toBe('const a = 1;\n');
  });
});
