import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { EDITOR_FILES, ReadTextFileRequestSchema, WriteTextFileRequestSchema } from '../../../protocol/editor-files.js';
import { createStderrLogger } from '../../../servers/common/logger.js';
import { createFilesystemServer } from '../../../servers/filesystem/server.js';
import { textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';

/** An MCP client that lends "editor buffers" through the experimental capability (no ACP involved). */
async function connect(root: string, lend: boolean, onConfirm?: () => void) {
  const buffers = new Map<string, string>();
  const asked: string[] = [];
  const writes: { path: string; content: string }[] = [];
  const kit = createFilesystemServer({ roots: [root], log: createStderrLogger('fs-editor-test') });
  const client = new Client(
    { name: 'editor-host', version: '1' },
    {
      capabilities: {
        ...(lend ? { experimental: { [EDITOR_FILES]: { readTextFile: true, writeTextFile: true } } } : {}),
        ...(onConfirm ? { elicitation: {} } : {}),
      },
    },
  );
  if (onConfirm) {
    client.setRequestHandler(ElicitRequestSchema, async () => {
      onConfirm();
      return { action: 'accept', content: { decision: 'proceed_once' } };
    });
  }
  client.setRequestHandler(ReadTextFileRequestSchema, async (req) => {
    asked.push(req.params.path);
    if (req.params.path.endsWith('unopenable.txt')) throw new Error('the editor cannot open this file');
    return { content: buffers.get(req.params.path) ?? readFileSync(req.params.path, 'utf8') };
  });
  client.setRequestHandler(WriteTextFileRequestSchema, async (req) => {
    writes.push({ path: req.params.path, content: req.params.content });
    buffers.set(req.params.path, req.params.content);
    return {};
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([kit.mcp.connect(a), client.connect(b)]);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { buffers, asked, writes, call };
}

describe("filesystem server: the client's lent editor files", () => {
  it('reads and edits go through the client when it lends its files, and touch the disk only when it does not', async () => {
    const root = tempDir('gmc-edfs-');
    const file = join(root, 'f.txt');
    writeFileSync(file, 'disk text\n');

    const lent = await connect(root, true);
    lent.buffers.set(file, 'buffer text\n');
    expect(textOf(await lent.call('read_file', { absolute_path: file }))).toBe('buffer text\n');
    const r = await lent.call('replace', { file_path: file, old_string: 'buffer', new_string: 'edited' });
    expect(r.isError).toBeFalsy();
    expect(lent.writes).toEqual([{ path: file, content: 'edited text\n' }]);
    expect(readFileSync(file, 'utf8')).toBe('disk text\n');
    // A new file has no buffer: it is created on disk.
    const fresh = join(root, 'new.txt');
    expect((await lent.call('write_file', { file_path: fresh, content: 'new\n' })).isError).toBeFalsy();
    expect(readFileSync(fresh, 'utf8')).toBe('new\n');
    expect(lent.writes).toHaveLength(1);

    // An editor that cannot open a file has no buffer of it: the disk's text is read.
    const odd = join(root, 'unopenable.txt');
    writeFileSync(odd, 'plain disk\n');
    expect(textOf(await lent.call('read_file', { absolute_path: odd }))).toBe('plain disk\n');
    expect(lent.asked).toContain(odd);

    const plain = await connect(root, false);
    expect(textOf(await plain.call('read_file', { absolute_path: file }))).toBe('disk text\n');
    expect(
      (await plain.call('replace', { file_path: file, old_string: 'disk', new_string: 'DISK' })).isError,
    ).toBeFalsy();
    expect(readFileSync(file, 'utf8')).toBe('DISK text\n');
    expect(plain.asked).toEqual([]);
    expect(plain.writes).toEqual([]);
  });

  it('a parent swapped for a symlink while the user confirms does not send the write outside', async () => {
    const root = tempDir('gmc-edfs-race-');
    const outside = tempDir('gmc-edfs-out-');
    mkdirSync(join(root, 'sub'));
    writeFileSync(join(root, 'sub', 'f.txt'), 'inside\n');
    writeFileSync(join(outside, 'f.txt'), 'secret outside\n');
    const swap = () => {
      renameSync(join(root, 'sub'), join(root, 'sub-old'));
      symlinkSync(outside, join(root, 'sub'));
    };
    for (const [tool, args] of [
      ['write_file', { file_path: join(root, 'sub', 'f.txt'), content: 'edited\n' }],
      ['replace', { file_path: join(root, 'sub', 'f.txt'), old_string: 'inside', new_string: 'edited' }],
    ] as const) {
      const lent = await connect(root, true, swap);
      const r = await lent.call(tool, args);
      expect(r.isError, `${tool}: ${textOf(r)}`).toBe(true);
      expect(textOf(r)).toMatch(/Path changed|not in workspace/);
      expect(lent.writes).toEqual([]);
      expect(readFileSync(join(outside, 'f.txt'), 'utf8')).toBe('secret outside\n');
      // Undo the swap for the next tool.
      rmSync(join(root, 'sub'));
      renameSync(join(root, 'sub-old'), join(root, 'sub'));
    }
  });
});
