import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  applyCompletion,
  completeAtPath,
  completeAtTool,
  completeSlash,
} from '../../../../host/ui/input/completion.js';
import { editorCommand } from '../../../../host/ui/input/editor.js';
import { InputHistory } from '../../../../host/ui/input/history-store.js';
import { LineEditor, wrappedRows } from '../../../../host/ui/input/line-editor.js';
import { installPasteFilter } from '../../../../host/ui/input/paste-filter.js';
import { mcpStatusView } from '../../../../host/core/mcp-status-view.js';
import { renderOutput } from '../../../../host/ui/slash-commands/render-output.js';
import { promptCommands, runSlash } from '../../../../host/ui/slash-commands/slash-commands.js';
import { unknownCommandText } from '../../../../host/ui/slash-commands/command-suggestions.js';
import { parseSlash, promptArgs } from '../../../../host/ui/slash-commands/slash-parse.js';
import { createPalette, stripSgr } from '../../../../host/ui/text/palette.js';
import { tempDir } from '../../../helpers/tmp.js';

describe('line editor', () => {
  it('edits multi-line text with wide characters', () => {
    const ed = new LineEditor();
    ed.insert('héllo 😀');
    ed.backspace();
    expect(ed.text).toBe('héllo ');
    ed.insert('wörld\r\nline two');
    expect(ed.text).toBe('héllo wörld\nline two');
    expect(ed.cursorRow).toBe(1);
    expect(ed.moveLine(-1)).toBe(true);
    expect(ed.cursorRow).toBe(0);
    expect(ed.moveLine(-1)).toBe(false);
    ed.end();
    ed.deleteWord();
    expect(ed.text).toBe('héllo \nline two');
    ed.killToStart();
    expect(ed.text).toBe('\nline two');
    expect(wrappedRows('中文中文', 4)).toBe(2);
  });
});

describe('history', () => {
  it('walks entries, keeps the draft and persists per file', () => {
    const dir = tempDir('ui-hist-');
    const file = InputHistory.fileFor(join(dir, 'proj'));
    const h = new InputHistory(file).load();
    h.add('first');
    h.add('second');
    h.add('second');
    expect(h.prev('draft')).toBe('second');
    expect(h.prev('second')).toBe('first');
    expect(h.prev('first')).toBeUndefined();
    expect(h.next()).toBe('second');
    expect(h.next()).toBe('draft');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(['first', 'second']);
    expect(new InputHistory(file).load().list()).toEqual(['first', 'second']);
    writeFileSync(file, 'not json');
    expect(new InputHistory(file).load().list()).toEqual([]);
  });

  it("starts from Gemini CLI's prompts in the project when it has none of its own", () => {
    const home = tempDir('ui-hist-gc-');
    const tmp = join(home, '.gemini', 'tmp');
    const root = '/work/a-project';
    mkdirSync(join(tmp, 'a-project'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [root]: 'a-project' } }));
    // Gemini CLI 0.61's logs.json: its Logger's entries, newest not necessarily last.
    const entry = (messageId: number, timestamp: string, message: string, type = 'user') => ({
      sessionId: 's',
      messageId,
      timestamp,
      type,
      message,
    });
    writeFileSync(
      join(tmp, 'a-project', 'logs.json'),
      JSON.stringify([
        entry(1, '2026-11-29T10:00:02.000Z', 'second prompt'),
        entry(0, '2026-11-29T10:00:01.000Z', 'first prompt'),
        entry(2, '2026-11-29T10:00:03.000Z', 'a reply', 'gemini'),
      ]),
    );
    const file = InputHistory.fileFor(join(tmp, createHash('sha256').update(root).digest('hex')));
    const h = new InputHistory(file).load();
    expect(h.list()).toEqual(['first prompt', 'second prompt']);
    h.add('typed here');
    // From then on the history is ours: Gemini CLI's file is not read again, nor written.
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(['first prompt', 'second prompt', 'typed here']);
    writeFileSync(file, '[]');
    expect(new InputHistory(file).load().list()).toEqual([]);
  });
});

describe('completion', () => {
  it('completes slash commands and sub-commands', () => {
    const table = { memory: ['show', 'refresh', 'add'], mcp: ['restart'], help: [] };
    const c = completeSlash('/me', 3, table)!;
    expect(applyCompletion('/me', c)).toEqual({ text: '/memory ', cursor: 8 });
    const s = completeSlash('/memory re', 10, table)!;
    expect(s.candidates).toEqual(['refresh']);
  });
  it('completes @paths from the file system and tool names', () => {
    const dir = tempDir('ui-comp-');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'main.ts'), '');
    writeFileSync(join(dir, 'src', 'math.ts'), '');
    writeFileSync(join(dir, '.hidden'), '');
    const a = completeAtPath('look at @s', 10, dir)!;
    expect(applyCompletion('look at @s', a)).toEqual({ text: 'look at @src/', cursor: 13 });
    const b = completeAtPath('@src/m', 6, dir)!;
    expect(b.candidates).toEqual(['@src/main.ts', '@src/math.ts']);
    expect(applyCompletion('@src/m', b)!.text).toBe('@src/ma');
    expect(completeAtPath('@', 1, dir)!.candidates).toEqual(['@src/']);
    const t = completeAtTool('@filesystem__li', 15, ['filesystem__list_directory', 'filesystem__read_file'])!;
    expect(applyCompletion('@filesystem__li', t)!.text).toBe('@filesystem__list_directory(');
  });
});

describe('slash parsing and commands', () => {
  it('parses commands and prompt arguments', () => {
    expect(parseSlash('/mcp restart web')).toEqual({ name: 'mcp', args: ['restart', 'web'], rest: 'restart web' });
    expect(parseSlash('not a command')).toBeUndefined();
    expect(promptArgs('--lang=en "some topic"', [{ name: 'lang' }, { name: 'topic' }])).toEqual({
      lang: 'en',
      topic: 'some topic',
    });
    expect(promptArgs('a b c', [{ name: 'x' }, { name: 'y' }])).toEqual({ x: 'a', y: 'b c' });
  });
  it('lists servers with failures and exposes prompts as commands', async () => {
    const states = [
      {
        alias: 'fs',
        status: 'connected',
        tools: [{ name: 'read_file', description: 'Reads' }],
        prompts: [{ name: 'review' }],
        config: { builtIn: true },
      },
      { alias: 'bad', status: 'failed', error: 'spawn ENOENT', stderrTail: 'boom', tools: [], prompts: [] },
      { alias: 'other', status: 'connected', tools: [], prompts: [{ name: 'review' }, { name: 'help' }] },
    ];
    const text = stripSgr(renderOutput(mcpStatusView(states as never, true), createPalette(0)));
    expect(text).toContain('fs (built-in) connected — 1 tool, 1 prompt');
    expect(text).toContain('bad failed');
    expect(text).toContain('spawn ENOENT');
    expect(text).toContain('read_file — Reads');
    expect(promptCommands(states).map((c) => c.command)).toEqual(['fs__review', 'other__review', 'other__help']);
    const printed: string[] = [];
    const calls: unknown[] = [];
    const ctx = {
      runtime: {
        extensionContext: '',
        registry: { list: () => [] },
        commands: { commands: [] },
        manager: { states: () => [] },
      } as never,
      palette: createPalette(0),
      print: (t: string) => printed.push(t),
      error: (t: string) => printed.push(`ERR ${t}`),
      clear() {},
      exit() {},
      submitPrompt() {},
      runTool: async (n: string, a: Record<string, unknown>) => void calls.push([n, a]),
      readMemory: async () => 'remembered',
    };
    expect(await runSlash(parseSlash('/memory add likes tea')!, ctx)).toBe(true);
    expect(calls).toEqual([['memory__save_memory', { fact: 'likes tea' }]]);
    await runSlash(parseSlash('/memory show')!, ctx);
    expect(printed.pop()).toContain('remembered');
    expect(await runSlash(parseSlash('/nope')!, ctx)).toBe(false);
  });
});

describe('bracketed paste', () => {
  it('hands pasted text over whole and passes typed keys through', () => {
    const s = new PassThrough();
    const pasted: string[] = [];
    const seen: string[] = [];
    const off = installPasteFilter(s, (t) => pasted.push(t));
    s.on('data', (d: Buffer) => seen.push(d.toString()));
    s.emit('data', Buffer.from('ab\x1b[200~line1\nline2'));
    s.emit('data', Buffer.from('\r\x1b[201~c'));
    expect(pasted).toEqual(['line1\nline2\r']);
    expect(seen).toEqual(['ab', 'c']);
    off();
  });
  it('splits $EDITOR into command and arguments', () => {
    expect(editorCommand({ EDITOR: 'code -w' })).toEqual({ file: 'code', args: ['-w'] });
    expect(editorCommand({})).toEqual({ file: 'vi', args: [] });
  });
});

describe('an unknown slash command suggests the closest ones', () => {
  const known = ['export-session', 'exit', 'extensions', 'model', 'memory', 'help'];
  it('a prefix first (/export → /export-session), then near spellings, then none', () => {
    expect(unknownCommandText('export', known)).toBe(
      'Unknown command /export. Did you mean /export-session? Type /help for the list.',
    );
    expect(unknownCommandText('modle', known)).toContain('Did you mean /model?');
    expect(unknownCommandText('zzzzzzzz', known)).toBe('Unknown command /zzzzzzzz. Type /help for the list.');
  });

  it('a Gemini CLI command not offered here says what to do instead (/auth, /privacy, /ide)', () => {
    expect(unknownCommandText('auth', known)).toMatch(/^\/auth is Gemini CLI's: sign-in here is an API key/);
    expect(unknownCommandText('Login', known)).toContain('GEMINI_API_KEY');
    expect(unknownCommandText('privacy', known)).toContain('no usage statistics');
    expect(unknownCommandText('ide', known)).toContain('--acp');
    // Not inherited object keys.
    expect(unknownCommandText('constructor', known)).toMatch(/^Unknown command/);
  });
});
