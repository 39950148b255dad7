import { describe, expect, it } from 'vitest';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { startMemory } from './harness.js';

const NS = 'dev.gemini-mcp-cli';

/** Checklist items 2, 9, 10 and 70 for save_memory, with an elicitation-capable client. */
describe('save_memory confirmation conformance', () => {
  async function start(decision: () => Record<string, unknown>) {
    const home = tempDir('memc-home-');
    const root = tempDir('memc-root-');
    const asked: ElicitRequest['params'][] = [];
    const s = await startMemory(home, root, {
      elicit: (p) => (asked.push(p), { action: 'accept', content: decision() }),
    });
    return { s, asked, memFile: join(home, '.gemini', 'GEMINI.md'), home };
  }

  it('validation errors return without asking and carry an error type', async () => {
    const { s, asked, memFile } = await start(() => ({ decision: 'proceed_once' }));
    for (const args of [{ fact: '' }, { fact: ' \n\t' }, { fact: '- - ' }, {}, { fact: 3 }]) {
      const r = await s.call('save_memory', args);
      expect(r.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(r)).toContain('fact');
      expect(r._meta?.[`${NS}/errorType`]).toBe('invalid_tool_params');
    }
    expect(textOf(await s.call('save_memory', { fact: '   ' }))).toBe('Parameter "fact" must be a non-empty string.');
    expect(asked).toHaveLength(0);
    expect(existsSync(memFile)).toBe(false);
  });

  it('shows the exact title and the diff of the existing memory file before writing', async () => {
    const { s, asked, memFile } = await start(() => ({ decision: 'proceed_always' }));
    mkdirSync(join(memFile, '..'), { recursive: true });
    writeFileSync(memFile, '# Me\n');
    const r = await s.call('save_memory', { fact: 'likes <b>tea</b>' }, { [`${NS}/callId`]: 'm-7' });
    expect(textOf(r)).toBe('{"success":true,"message":"Okay, I\'ve remembered that: \\"likes  b tea /b \\""}');
    const after = '# Me\n\n## Gemini Added Memories\n- likes  b tea /b \n';
    expect(readFileSync(memFile, 'utf8')).toBe(after);
    const diff =
      'Index: GEMINI.md\n===================================================================\n' +
      '--- GEMINI.md\tCurrent\n+++ GEMINI.md\tProposed\n@@ -1,1 +1,4 @@\n # Me\n+\n+## Gemini Added Memories\n+- likes  b tea /b \n';
    expect(asked).toHaveLength(1);
    expect(asked[0].message).toBe(`Confirm Memory Save: ~/.gemini/GEMINI.md\n\n${diff}`);
    expect(asked[0]._meta?.[`${NS}/confirmation`]).toEqual({
      kind: 'edit',
      title: 'Confirm Memory Save: ~/.gemini/GEMINI.md',
      callId: 'm-7',
      filePath: memFile,
      fileDiff: diff,
      originalContent: '# Me\n',
      newContent: after,
      isNewFile: false,
    });
  });
});

describe('save_memory file handling', () => {
  it('writes through a symlinked memory file, keeping the link', async () => {
    const home = tempDir('meml-home-');
    const dotfiles = tempDir('meml-dot-');
    const target = join(dotfiles, 'GEMINI.md');
    writeFileSync(target, '# Dotfiles\n');
    mkdirSync(join(home, '.gemini'));
    symlinkSync(target, join(home, '.gemini', 'GEMINI.md'));
    const s = await startMemory(home, dotfiles);
    expect((await s.call('save_memory', { fact: 'linked' })).isError).toBeFalsy();
    expect(lstatSync(join(home, '.gemini', 'GEMINI.md')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('# Dotfiles\n\n## Gemini Added Memories\n- linked\n');
  });

  it('a memory path that is a directory is a memory error, not a crash', async () => {
    const home = tempDir('memd-home-');
    mkdirSync(join(home, '.gemini', 'GEMINI.md'), { recursive: true });
    const s = await startMemory(home, home);
    const r = await s.call('save_memory', { fact: 'x' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^\{"success":false,"error":"Failed to save memory\. Detail: .*EISDIR/);
    expect(r._meta?.[`${NS}/errorType`]).toBe('memory_tool_execution_error');
    expect((await s.client.readResource({ uri: 'gemini-memory://context' })).contents).toHaveLength(1);
  });
});
