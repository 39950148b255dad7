import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../../protocol/meta.js';
import { writeFileError } from '../../../servers/filesystem/lib/edit-support.js';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs, errorTypeOf, firstText } from './connect.js';

describe('write_file', () => {
  it('creates a new file with its parent directories', async () => {
    const root = tempDir();
    const fs = await connectFs({ roots: [root] });
    const file = join(root, 'a', 'b', 'new.txt');
    const r = await fs.call('write_file', { file_path: file, content: 'alpha\nbeta\n' });
    expect(firstText(r)).toBe(
      `Successfully created and wrote to new file: ${file}. Here is the updated code:\nalpha\nbeta\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('alpha\nbeta\n');
    expect(r._meta?.[META.display]).toMatchObject({
      fileName: 'new.txt',
      filePath: file,
      originalContent: null,
      isNewFile: true,
    });
    expect((r._meta![META.display] as { fileDiff: string }).fileDiff).toContain('\tOriginal\n');
    expect((r._meta![META.display] as { fileDiff: string }).fileDiff).toContain('\tWritten\n');
  });

  it('overwrites with a snippet of the changed region', async () => {
    const root = tempDir();
    const file = join(root, 'forty.txt');
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    const next = [...lines];
    next[19] = 'CHANGED';
    const fs = await connectFs({ roots: [root] });
    const text = await fs.text('write_file', { file_path: file, content: `${next.join('\n')}\n` });
    const expected = ['...', ...next.slice(14, 25), '...'].join('\n');
    expect(text).toBe(`Successfully overwrote file: ${file}. Here is the updated code:\n${expected}`);
  });

  it('validates with the contract messages', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'dir'));
    const fs = await connectFs({ roots: [root] });
    const cases: [Record<string, unknown>, string][] = [
      [{ file_path: '', content: 'x' }, 'Missing or empty "file_path"'],
      [{ file_path: 'rel.txt', content: 'x' }, 'File path must be absolute: rel.txt'],
      [{ file_path: join(root, 'dir'), content: 'x' }, `Path is a directory, not a file: ${join(root, 'dir')}`],
    ];
    for (const [args, msg] of cases) {
      const r = await fs.call('write_file', args);
      expect([r.isError, firstText(r), errorTypeOf(r)]).toEqual([true, msg, 'invalid_tool_params']);
    }
    const placeholder = await fs.call('write_file', {
      file_path: join(root, 'p.ts'),
      content: 'a\n// rest of methods ...\n',
    });
    expect(firstText(placeholder)).toContain('omission placeholder');
    expect(existsSync(join(root, 'p.ts'))).toBe(false);
    // The same words in a string literal are fine.
    const ok = await fs.call('write_file', {
      file_path: join(root, 'q.ts'),
      content: 'const s = "rest of code ...";\n',
    });
    expect(ok.isError).toBeFalsy();
  });

  it.skipIf(process.getuid?.() === 0)('reports a read-only target as EACCES', async () => {
    const root = tempDir();
    const file = join(root, 'ro.txt');
    writeFileSync(file, 'old');
    chmodSync(file, 0o444);
    const fs = await connectFs({ roots: [root] });
    const r = await fs.call('write_file', { file_path: file, content: 'new' });
    expect([firstText(r), errorTypeOf(r)]).toEqual([
      `Permission denied writing to file: ${file} (EACCES)`,
      'permission_denied',
    ]);
    expect(readFileSync(file, 'utf8')).toBe('old');
  });

  it('maps write errors to the contract texts', () => {
    const err = (code: string) => Object.assign(new Error(`${code}: boom`), { code });
    expect(writeFileError('/w/f', err('EACCES'))).toMatchObject({
      message: 'Permission denied writing to file: /w/f (EACCES)',
      errorType: 'permission_denied',
    });
    expect(writeFileError('/w/f', err('ENOSPC'))).toMatchObject({
      message: 'No space left on device: /w/f (ENOSPC)',
      errorType: 'no_space_left',
    });
    expect(writeFileError('/w/f', err('EISDIR'))).toMatchObject({
      message: 'Target is a directory, not a file: /w/f (EISDIR)',
      errorType: 'target_is_directory',
    });
    expect(writeFileError('/w/f', err('EIO'))).toMatchObject({
      message: "Error writing to file '/w/f': EIO: boom (EIO)",
      errorType: 'file_write_failure',
    });
    // Only EACCES is "permission denied" in the contract; EPERM (immutable file, as root) is another code.
    expect(writeFileError('/w/f', err('EPERM'))).toMatchObject({
      message: "Error writing to file '/w/f': EPERM: boom (EPERM)",
      errorType: 'file_write_failure',
    });
    expect(writeFileError('/w/f', new Error('odd'))).toMatchObject({
      message: 'Error writing to file: odd',
      errorType: 'file_write_failure',
    });
  });

  it('writes literal escapes verbatim and keeps CRLF', async () => {
    const root = tempDir();
    const crlf = join(root, 'crlf.txt');
    writeFileSync(crlf, 'a\r\nb\r\n');
    const fs = await connectFs({ roots: [root] });
    await fs.call('write_file', { file_path: join(root, 'esc.txt'), content: 'a\\nb' });
    expect(readFileSync(join(root, 'esc.txt'), 'utf8')).toBe('a\\nb');
    await fs.call('write_file', { file_path: crlf, content: 'x\ny\nz\n' });
    expect(readFileSync(crlf, 'utf8')).toBe('x\r\ny\r\nz\r\n');
  });

  it('confirms through elicitation: accept, decline, modify', async () => {
    const root = tempDir();
    const file = join(root, 'conf.txt');
    writeFileSync(file, 'old\n');
    const asked: ElicitRequest['params'][] = [];
    let answers: unknown[] = [];
    const fs = await connectFs({ roots: [root], elicit: (p) => (asked.push(p), answers.shift() as never) });

    answers = [{ action: 'decline' }];
    const declined = await fs.call('write_file', { file_path: file, content: 'new\n' });
    expect([declined.isError, firstText(declined), errorTypeOf(declined)]).toEqual([
      true,
      '[Operation Cancelled] Reason: User denied execution.',
      'execution_failed',
    ]);
    expect(readFileSync(file, 'utf8')).toBe('old\n');
    const detail = (asked[0]._meta as Record<string, Record<string, unknown>>)[META.confirmation];
    expect(detail).toMatchObject({
      kind: 'edit',
      title: 'Confirm Write: conf.txt',
      filePath: file,
      originalContent: 'old\n',
      newContent: 'new\n',
      isNewFile: false,
    });
    expect(detail.fileDiff).toContain('--- conf.txt\tCurrent\n+++ conf.txt\tProposed\n');
    expect(asked[0].message).toContain('Confirm Write: conf.txt');

    answers = [
      { action: 'accept', content: { decision: 'modify', content: 'edited\n' } },
      { action: 'accept', content: { decision: 'proceed_once' } },
    ];
    asked.length = 0;
    const modified = await fs.call('write_file', { file_path: file, content: 'new\n' }, { [META.callId]: 'c-7' });
    expect(asked).toHaveLength(2);
    expect((asked[1]._meta as Record<string, Record<string, unknown>>)[META.confirmation]).toMatchObject({
      newContent: 'edited\n',
      callId: 'c-7',
    });
    expect(firstText(modified)).toBe(
      `Successfully overwrote file: ${file}. User modified the \`content\` to be: edited\n Here is the updated code:\nedited\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('edited\n');

    asked.length = 0;
    const pre = await fs.call('write_file', { file_path: file, content: 'pre\n' }, { [META.preapproved]: true });
    expect(pre.isError).toBeFalsy();
    expect(asked).toHaveLength(0);
    // Validation errors return before any question.
    const bad = await fs.call('write_file', { file_path: 'rel', content: 'x' });
    expect(bad.isError).toBe(true);
    expect(asked).toHaveLength(0);
  });
});
