import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../../protocol/meta.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const PATH_MSG = (p: string, roots: string[]) =>
  `Path not in workspace: Attempted path "${p}" resolves outside the allowed workspace directories: ${roots.join(', ')}`;

describe('gemini-mcp-filesystem over stdio', () => {
  let root: string;
  let outside: string;
  let srv: StdioServer;
  const asked: ElicitRequest['params'][] = [];
  let answers: unknown[] = [];

  beforeAll(async () => {
    root = tempDir('gmc-int-');
    outside = tempDir('gmc-out-');
    writeFileSync(join(outside, 'secret.txt'), 'outside secret');
    mkdirSync(join(outside, 'dir'));
    writeFileSync(join(outside, 'dir', 'inner.txt'), 'inner secret');
    mkdirSync(join(root, 'sub'));
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), '[core]');
    writeFileSync(join(root, 'a.txt'), 'hello world\n');
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link-file'));
    symlinkSync(join(outside, 'dir'), join(root, 'link-dir'));
    symlinkSync(join(root, 'link-file'), join(root, 'link-chain'));
    srv = await startStdioServer(ENTRY.filesystem, {
      args: ['--root', root],
      elicit: (p) => (asked.push(p), (answers.shift() ?? { action: 'decline' }) as never),
    });
  });
  afterAll(async () => srv?.close());

  it('lists the seven tools with their schemas and annotations', async () => {
    const { tools } = await srv.client.listTools();
    const summary = tools.map((t) => ({
      name: t.name,
      title: t.title,
      inputSchema: t.inputSchema,
      annotations: t.annotations,
      meta: t._meta,
    }));
    expect(summary).toMatchSnapshot();
    for (const t of tools) expect(t.inputSchema).not.toHaveProperty('additionalProperties', false);
  });

  it('calls every tool', async () => {
    expect(textOf(await srv.call('list_directory', { path: root }))).toContain('a.txt (12 bytes)');
    expect(textOf(await srv.call('read_file', { absolute_path: join(root, 'a.txt') }))).toBe('hello world\n');
    expect(textOf(await srv.call('search_file_content', { pattern: 'hello' }))).toContain('File: a.txt');
    expect(textOf(await srv.call('glob', { pattern: '*.txt' }))).toContain(join(root, 'a.txt'));
    expect(textOf(await srv.call('read_many_files', { paths: ['a.txt'] }))).toContain('--- End of content ---');
    const w = await srv.call(
      'write_file',
      { file_path: join(root, 'pre.txt'), content: 'x\n' },
      { [META.preapproved]: true },
    );
    expect(textOf(w)).toContain('Successfully created');
    const r = await srv.call(
      'replace',
      { file_path: join(root, 'pre.txt'), old_string: 'x', new_string: 'y' },
      { [META.preapproved]: true },
    );
    expect(textOf(r)).toContain('(1 replacements)');
  });

  it('asks before writing: accept, decline, modify', async () => {
    const file = join(root, 'elicit.txt');
    answers = [{ action: 'decline' }];
    const declined = await srv.call('write_file', { file_path: file, content: 'no\n' });
    expect(textOf(declined)).toBe('[Operation Cancelled] Reason: User denied execution.');
    expect(() => readFileSync(file)).toThrow();
    answers = [{ action: 'accept', content: { decision: 'proceed_once' } }];
    await srv.call('write_file', { file_path: file, content: 'yes\n' }, { [META.callId]: 'call-1' });
    expect(readFileSync(file, 'utf8')).toBe('yes\n');
    expect((asked.at(-1)!._meta as Record<string, Record<string, unknown>>)[META.confirmation]).toMatchObject({
      callId: 'call-1',
      title: 'Confirm Write: elicit.txt',
    });
    answers = [
      { action: 'accept', content: { decision: 'modify', content: 'mine\n' } },
      { action: 'accept', content: { decision: 'proceed_once' } },
    ];
    const mod = await srv.call('replace', { file_path: file, old_string: 'yes', new_string: 'maybe' });
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
    expect(textOf(mod)).toContain('User modified the `new_string` content to be: mine\n.');
  });

  it('refuses path escapes', async () => {
    const attempts: [string, string][] = [
      [join(root, '..', 'x.txt'), join(root, '..', 'x.txt')],
      [join(outside, 'secret.txt'), join(outside, 'secret.txt')],
      [join(root, 'link-file'), join(root, 'link-file')],
      [join(root, 'link-dir', 'inner.txt'), join(root, 'link-dir', 'inner.txt')],
      [join(root, 'link-chain'), join(root, 'link-chain')],
      [join(root, '.git', 'config'), join(root, '.git', 'config')],
    ];
    for (const [p, shown] of attempts) {
      const read = await srv.call('read_file', { absolute_path: p });
      expect(read.isError).toBe(true);
      expect(read._meta?.[META.errorType]).toBe('path_not_in_workspace');
      expect(textOf(read)).toBe(PATH_MSG(shown, [root]));
      const write = await srv.call('write_file', { file_path: p, content: 'pwned' }, { [META.preapproved]: true });
      expect(textOf(write)).toBe(PATH_MSG(shown, [root]));
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
    expect(readFileSync(join(outside, 'dir', 'inner.txt'), 'utf8')).toBe('inner secret');
    // Symlinked directories are not walked by search, glob or read_many_files.
    expect(textOf(await srv.call('search_file_content', { pattern: 'secret' }))).toMatch(/^No matches found/);
    expect(textOf(await srv.call('glob', { pattern: '**/*.txt' }))).not.toContain('inner.txt');
    expect(textOf(await srv.call('read_many_files', { paths: ['**/*'] }))).not.toContain('secret');
  });

  it('survives malformed arguments and keeps serving', async () => {
    const bad = await srv.call('read_file', { absolute_path: 42 });
    expect(bad.isError).toBe(true);
    expect(bad._meta?.[META.errorType]).toBe('invalid_tool_params');
    expect(textOf(await srv.call('read_file', { absolute_path: join(root, 'a.txt') }))).toBe('hello world\n');
  });
});

describe('a client without elicitation', () => {
  it('writes directly and still refuses escapes', async () => {
    const root = tempDir('gmc-noel-');
    const tmp = tempDir('gmc-ptd-');
    const srv = await startStdioServer(ENTRY.filesystem, { args: ['--root', root, '--project-temp-dir', tmp] });
    try {
      const r = await srv.call('write_file', { file_path: join(root, 'direct.txt'), content: 'direct\n' });
      expect(textOf(r)).toContain('Successfully created and wrote to new file');
      expect(readFileSync(join(root, 'direct.txt'), 'utf8')).toBe('direct\n');
      writeFileSync(join(tmp, 'saved.txt'), 'from temp');
      expect(textOf(await srv.call('read_file', { absolute_path: join(tmp, 'saved.txt') }))).toBe('from temp');
      const out = await srv.call('read_file', { absolute_path: '/etc/hostname' });
      expect(textOf(out)).toBe(`${PATH_MSG('/etc/hostname', [root])} or the project temp directory: ${tmp}`);
    } finally {
      await srv.close();
    }
  });

  it('uses client roots inside --root over --root, and the second root for reads', async () => {
    const argRoot = tempDir('gmc-arg-');
    const first = join(argRoot, 'r1');
    const second = join(argRoot, 'r2');
    mkdirSync(first);
    mkdirSync(second);
    writeFileSync(join(first, 'rel.txt'), 'first');
    writeFileSync(join(second, 'two.txt'), 'second');
    const srv = await startStdioServer(ENTRY.filesystem, { args: ['--root', argRoot], roots: [first, second] });
    try {
      expect(textOf(await srv.call('read_file', { absolute_path: join(second, 'two.txt') }))).toBe('second');
      expect(textOf(await srv.call('search_file_content', { pattern: 'first', path: '.' }))).toContain('File: rel.txt');
      expect(textOf(await srv.call('read_file', { absolute_path: join(argRoot, 'x') }))).toBe(
        `${PATH_MSG(join(argRoot, 'x'), [first, second])}`,
      );
    } finally {
      await srv.close();
    }
  });
});
