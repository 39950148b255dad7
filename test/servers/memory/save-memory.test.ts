import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { startMemory as start } from './harness.js';

const NS = 'dev.gemini-mcp-cli';

function fixture() {
  const home = tempDir('mem-home-');
  const root = tempDir('mem-root-');
  const memFile = join(home, '.gemini', 'GEMINI.md');
  return { home, root, memFile };
}

describe('save_memory', () => {
  it('lists the tool with its annotations, confirms flag and required fact', async () => {
    const { home, root } = fixture();
    const s = await start(home, root);
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['save_memory', 'ask_user']);
    const t = tools[0];
    expect(t.title).toBe('SaveMemory');
    expect(t.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    expect(t._meta?.[`${NS}/confirms`]).toBe(true);
    expect(t.inputSchema.required).toEqual(['fact']);
    expect(JSON.stringify(t.inputSchema)).not.toContain('"additionalProperties":false');
    expect(t.description).toContain('Should I remember that for you?');
  });

  it('creates the section in a missing file, then appends to it', async () => {
    const { home, root, memFile } = fixture();
    const s = await start(home, root);
    const r1 = await s.call('save_memory', { fact: 'prefers tea', wait_for_previous: true });
    expect(r1.isError).toBeFalsy();
    expect(textOf(r1)).toBe('{"success":true,"message":"Okay, I\'ve remembered that: \\"prefers tea\\""}');
    expect(readFileSync(memFile, 'utf8')).toBe('## Gemini Added Memories\n- prefers tea\n');
    await s.call('save_memory', { fact: '- uses vim' });
    expect(readFileSync(memFile, 'utf8')).toBe('## Gemini Added Memories\n- prefers tea\n- uses vim\n');
  });

  it.each([
    ['# Notes\n\n', '# Notes\n\n## Gemini Added Memories\n- x\n'],
    ['# Notes\n', '# Notes\n\n## Gemini Added Memories\n- x\n'],
    ['# Notes', '# Notes\n\n## Gemini Added Memories\n- x\n'],
  ])('adds the header after the right separator (%j)', async (before, after) => {
    const { home, root, memFile } = fixture();
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(memFile, before);
    const s = await start(home, root);
    await s.call('save_memory', { fact: 'x' });
    expect(readFileSync(memFile, 'utf8')).toBe(after);
  });

  it('appends at the end of the section, before the next section, leaving others untouched', async () => {
    const { home, root, memFile } = fixture();
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(memFile, '# Me\n\n## Gemini Added Memories\n- a\n\n\n## Other\nkeep  this\n- not memory\n');
    const s = await start(home, root);
    await s.call('save_memory', { fact: 'b' });
    expect(readFileSync(memFile, 'utf8')).toBe(
      '# Me\n\n## Gemini Added Memories\n- a\n- b\n\n## Other\nkeep  this\n- not memory\n',
    );
  });

  it('sanitises the fact', async () => {
    const { home, root, memFile } = fixture();
    const s = await start(home, root);
    const r = await s.call('save_memory', { fact: '- - multi\nline <b> end' });
    expect(textOf(r)).toBe('{"success":true,"message":"Okay, I\'ve remembered that: \\"multi line  b  end\\""}');
    expect(readFileSync(memFile, 'utf8')).toBe('## Gemini Added Memories\n- multi line  b  end\n');
  });

  it('rejects empty facts and a missing parameter, writing nothing', async () => {
    const { home, root, memFile } = fixture();
    const s = await start(home, root);
    const r = await s.call('save_memory', { fact: '  \n ' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Parameter "fact" must be a non-empty string.');
    expect(r._meta?.[`${NS}/errorType`]).toBe('invalid_tool_params');
    const m = await s.call('save_memory', {});
    expect(m.isError).toBe(true);
    expect(textOf(m)).toContain('fact');
    expect(existsSync(memFile)).toBe(false);
  });

  it('reports an unwritable memory file as a memory error', async () => {
    const { home, root } = fixture();
    writeFileSync(join(home, 'plain-file'), 'x');
    const s = await start(home, root, { args: ['--memory-file', join(home, 'plain-file', 'GEMINI.md')] });
    const r = await s.call('save_memory', { fact: 'x' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^\{"success":false,"error":"Failed to save memory\. Detail: /);
    expect(r._meta?.[`${NS}/errorType`]).toBe('memory_tool_execution_error');
  });

  it('keeps every fact of 50 parallel saves, also across two server processes', async () => {
    const { home, root, memFile } = fixture();
    const a = await start(home, root);
    const b = await start(home, root);
    const facts = Array.from({ length: 50 }, (_, i) => `fact number ${i}`);
    const results = await Promise.all(facts.map((f, i) => (i % 2 ? a : b).call('save_memory', { fact: f })));
    expect(results.every((r) => !r.isError)).toBe(true);
    const text = readFileSync(memFile, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('## Gemini Added Memories');
    expect(lines.slice(1).sort()).toEqual(facts.map((f) => `- ${f}`).sort());
    expect(text.endsWith('\n') && !text.endsWith('\n\n')).toBe(true);
    // No temp or lock files are left behind.
    expect(readdirSync(join(home, '.gemini'))).toEqual(['GEMINI.md']);
  });

  it('asks through elicitation with the diff and honours accept and decline', async () => {
    const { home, root, memFile } = fixture();
    const asked: any[] = [];
    let decision = 'cancel';
    let action: 'accept' | 'decline' = 'decline';
    const s = await start(home, root, {
      elicit: (params) => {
        asked.push(params);
        return { action, content: { decision } };
      },
    });
    const declined = await s.call('save_memory', { fact: 'secret' }, { [`${NS}/callId`]: 'c-1' });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toBe('[Operation Cancelled] Reason: User denied execution.');
    expect(existsSync(memFile)).toBe(false);
    const detail = asked[0]._meta[`${NS}/confirmation`];
    expect(detail).toMatchObject({
      kind: 'edit',
      title: 'Confirm Memory Save: ~/.gemini/GEMINI.md',
      callId: 'c-1',
      filePath: memFile,
      isNewFile: true,
    });
    expect(detail.fileDiff).toContain('+++ GEMINI.md\tProposed');
    expect(detail.fileDiff).toContain('+- secret');
    expect(asked[0].message).toContain('Confirm Memory Save: ~/.gemini/GEMINI.md');

    action = 'accept';
    decision = 'proceed_once';
    const ok = await s.call('save_memory', { fact: 'secret' });
    expect(ok.isError).toBeFalsy();
    expect(readFileSync(memFile, 'utf8')).toBe('## Gemini Added Memories\n- secret\n');

    const pre = await s.call('save_memory', { fact: 'pre' }, { [`${NS}/preapproved`]: true });
    expect(pre.isError).toBeFalsy();
    expect(asked).toHaveLength(2);
  });

  it('writes the user-modified content as is', async () => {
    const { home, root, memFile } = fixture();
    const s = await start(home, root, {
      elicit: () => ({ action: 'accept', content: { decision: 'modify', content: '# mine\n' } }),
    });
    const r = await s.call('save_memory', { fact: 'x' });
    expect(textOf(r)).toBe('{"success":true,"message":"Okay, I\'ve updated the memory file with your modifications."}');
    expect(readFileSync(memFile, 'utf8')).toBe('# mine\n');
  });
});
