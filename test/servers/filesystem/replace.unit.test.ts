import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../../protocol/meta.js';
import { tempDir } from '../../helpers/tmp.js';
import { connectFs, errorTypeOf, firstText } from './connect.js';

describe('replace', () => {
  it('replaces one unique occurrence', async () => {
    const root = tempDir();
    const file = join(root, 'edit.txt');
    writeFileSync(file, 'line one\nline two\nline three\n');
    const fs = await connectFs({ roots: [root] });
    const r = await fs.call('replace', { file_path: file, old_string: 'line two', new_string: 'line 2' });
    expect(firstText(r)).toBe(
      `Successfully modified file: ${file} (1 replacements). Here is the updated code:\nline one\nline 2\nline three\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('line one\nline 2\nline three\n');
    expect(r._meta?.[META.display]).toMatchObject({
      originalContent: 'line one\nline two\nline three\n',
      isNewFile: false,
    });
  });

  it('creates a file with an empty old_string and refuses existing files', async () => {
    const root = tempDir();
    const file = join(root, 'n', 'm', 'new.txt');
    const fs = await connectFs({ roots: [root] });
    const r = await fs.call('replace', { file_path: file, old_string: '', new_string: 'hi\n' });
    expect(firstText(r)).toBe(`Created new file: ${file} with provided content. Here is the updated code:\nhi\n`);
    expect(readFileSync(file, 'utf8')).toBe('hi\n');
    const again = await fs.call('replace', { file_path: file, old_string: '', new_string: 'x' });
    expect([firstText(again), errorTypeOf(again)]).toEqual([
      `File already exists, cannot create: ${file}`,
      'attempt_to_create_existing_file',
    ]);
  });

  it('reports missing files, zero and mismatched occurrences, no-ops', async () => {
    const root = tempDir();
    const file = join(root, 'f.txt');
    writeFileSync(file, 'one one two');
    const fs = await connectFs({ roots: [root] });
    const missing = await fs.call('replace', { file_path: join(root, 'nope.txt'), old_string: 'a', new_string: 'b' });
    expect([firstText(missing), errorTypeOf(missing)]).toEqual([
      `File not found: ${join(root, 'nope.txt')}`,
      'file_not_found',
    ]);
    const zero = await fs.call('replace', { file_path: file, old_string: 'three', new_string: 'x' });
    expect(firstText(zero)).toBe(
      `Failed to edit, 0 occurrences found for old_string in ${file}. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`,
    );
    expect(errorTypeOf(zero)).toBe('edit_no_occurrence_found');
    const two = await fs.call('replace', { file_path: file, old_string: 'one', new_string: 'x' });
    expect([firstText(two), errorTypeOf(two)]).toEqual([
      `Failed to edit, Expected 1 occurrence but found 2 for old_string in file: ${file}`,
      'edit_expected_occurrence_mismatch',
    ]);
    const same = await fs.call('replace', { file_path: file, old_string: 'two', new_string: 'two' });
    expect([firstText(same), errorTypeOf(same)]).toEqual([
      `No changes to apply. The old_string and new_string are identical in file: ${file}`,
      'edit_no_change',
    ]);
    expect(readFileSync(file, 'utf8')).toBe('one one two');
    const schema = await fs.call('replace', {
      file_path: file,
      old_string: 'one',
      new_string: 'x',
      expected_replacements: 0,
    });
    expect(schema.isError).toBe(true);
    expect(firstText(schema)).toContain('expected_replacements');
    expect(errorTypeOf(schema)).toBe('invalid_tool_params');
    expect((await fs.call('replace', { file_path: '', old_string: 'a', new_string: 'b' })).content[0]).toMatchObject({
      text: "The 'file_path' parameter must be non-empty.",
    });
    expect(firstText(await fs.call('replace', { file_path: 'r.txt', old_string: 'a', new_string: 'b' }))).toBe(
      'File path must be absolute: r.txt',
    );
  });

  it('honours expected_replacements', async () => {
    const root = tempDir();
    const file = join(root, 'foo.txt');
    writeFileSync(file, 'foo foo foo');
    const fs = await connectFs({ roots: [root] });
    const two = await fs.call('replace', {
      file_path: file,
      old_string: 'foo',
      new_string: 'bar',
      expected_replacements: 2,
    });
    expect(firstText(two)).toBe(`Failed to edit, Expected 2 occurrences but found 3 for old_string in file: ${file}`);
    const three = await fs.call('replace', {
      file_path: file,
      old_string: 'foo',
      new_string: 'bar',
      expected_replacements: 3,
    });
    expect(firstText(three)).toContain('(3 replacements)');
    expect(readFileSync(file, 'utf8')).toBe('bar bar bar');
  });

  it('inserts $ patterns literally, keeps CRLF, reports user modification', async () => {
    const root = tempDir();
    const file = join(root, 'd.txt');
    writeFileSync(file, 'a\r\nX\r\nb\r\n');
    const fs = await connectFs({ roots: [root] });
    await fs.call('replace', { file_path: file, old_string: 'a\nX\n', new_string: "$& $1 $` $' $$\nX\n" });
    expect(readFileSync(file, 'utf8')).toBe("$& $1 $` $' $$\r\nX\r\nb\r\n");
    const r = await fs.call('replace', { file_path: file, old_string: 'X', new_string: 'Y', modified_by_user: true });
    expect(firstText(r)).toMatch(/ User modified the `new_string` content to be: Y\.$/);
  });

  it('confirms with Confirm Edit and re-validates modified content', async () => {
    const root = tempDir();
    const file = join(root, 'c.txt');
    writeFileSync(file, 'keep\nold\n');
    const asked: ElicitRequest['params'][] = [];
    let answers: unknown[] = [];
    const fs = await connectFs({ roots: [root], elicit: (p) => (asked.push(p), answers.shift() as never) });
    answers = [{ action: 'cancel' }];
    const cancelled = await fs.call('replace', { file_path: file, old_string: 'old', new_string: 'new' });
    expect(firstText(cancelled)).toBe('[Operation Cancelled] Reason: User denied execution.');
    expect(readFileSync(file, 'utf8')).toBe('keep\nold\n');
    expect((asked[0]._meta as Record<string, Record<string, unknown>>)[META.confirmation]).toMatchObject({
      kind: 'edit',
      title: 'Confirm Edit: c.txt',
      newContent: 'keep\nnew\n',
    });

    answers = [
      { action: 'accept', content: { decision: 'modify', content: 'keep\nmine\n' } },
      { action: 'accept', content: { decision: 'proceed_always' } },
    ];
    const mod = await fs.call('replace', { file_path: file, old_string: 'old', new_string: 'new' });
    expect(readFileSync(file, 'utf8')).toBe('keep\nmine\n');
    expect(firstText(mod)).toContain('User modified the `new_string` content to be: keep\nmine\n.');
    // A preparation error never asks.
    asked.length = 0;
    await fs.call('replace', { file_path: file, old_string: 'absent', new_string: 'x' });
    await fs.call('replace', { file_path: join(root, 'missing.txt'), old_string: 'a', new_string: 'x' });
    expect(asked).toHaveLength(0);
    expect(existsSync(join(root, 'missing.txt'))).toBe(false);
  });
});
