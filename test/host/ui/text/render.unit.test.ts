import { PassThrough } from 'node:stream';
import blessed from 'blessed';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../../host/config/settings.js';
import type { ToolCall } from '../../../../host/scheduler/types.js';
import { loadBlessed } from '../../../../host/ui/views/blessed-load.js';
import { Conversation } from '../../../../host/ui/views/conversation.js';
import { InputHistory } from '../../../../host/ui/input/history-store.js';
import { createPalette, stripSgr } from '../../../../host/ui/text/palette.js';
import { formatToolCard } from '../../../../host/ui/views/tool-card.js';
import { preloadTextWidth, textWidth } from '../../../../host/ui/text/text-width.js';
import { createWidthOf, markWide, patchBlessedWideChars } from '../../../../host/ui/text/wide-chars.js';
import { wrapLine, wrapText } from '../../../../host/ui/text/wrap.js';

const p256 = createPalette(256);
const plain = createPalette(0);

describe('wrapping', () => {
  it('breaks CJK text that has no spaces, by display width', () => {
    const rows = wrapLine('中文字符测试换行', 6);
    expect(rows).toEqual(['中文字', '符测试', '换行']);
    expect(rows.every((r) => stringWidth(r) <= 6)).toBe(true);
  });

  it('breaks at a late space, keeps emoji whole and carries SGR codes', () => {
    expect(wrapLine('hello wonderful world', 12)).toEqual(['hello', 'wonderful', 'world']);
    expect(wrapLine('ab😀😀😀', 4)).toEqual(['ab😀', '😀😀']);
    const styled = wrapLine(`${p256.red('abcdefgh')}`, 4);
    expect(styled.map(stripSgr)).toEqual(['abcd', 'efgh']);
    expect(styled[0].startsWith('\x1b[38;5;203m')).toBe(true);
    expect(wrapText('short\nline', 10)).toBe('short\nline');
  });

  it('model answers wrap inside the conversation indent', () => {
    const conv = new Conversation(plain);
    conv.add({ kind: 'model', text: '这是一个很长的中文句子用来测试换行', streaming: false });
    const lines = conv.render(20).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => stringWidth(l) <= 20)).toBe(true);
    expect(lines.slice(1).every((l) => l.startsWith('  '))).toBe(true);
    const user = new Conversation(plain);
    user.add({ kind: 'user', text: 'please translate 这是一个很长的中文句子用来测试换行' });
    const rows = user.render(20).split('\n');
    expect(rows[0].startsWith('> please')).toBe(true);
    expect(rows.every((l) => stringWidth(l) <= 20)).toBe(true);
    expect(rows.slice(1).every((l) => l.startsWith('  '))).toBe(true);
  });
});

describe('wide characters in blessed', () => {
  it('marks emoji and CJK as two cells', () => {
    const widthOf = createWidthOf();
    expect(markWide('a😀中b✅', '$1\x03', widthOf)).toBe('a😀\x03中\x03b✅\x03');
  });

  it('draws consecutive emoji without eating the characters after them', () => {
    patchBlessedWideChars();
    const output = Object.assign(new PassThrough(), { columns: 40, rows: 5, isTTY: true });
    const screen = blessed.screen({
      output,
      input: new PassThrough(),
      terminal: 'xterm-256color',
      fullUnicode: true,
      smartCSR: true,
      warnings: false,
    });
    try {
      const box = blessed.box({ parent: screen, top: 0, left: 0, width: 40, height: 3, tags: false });
      box.setContent('表😀😀😀以及 end');
      screen.render();
      const cells = screen.lines[0]
        .map((c) => c[1])
        .join('')
        .replace(/\x03/g, '');
      expect(cells.startsWith('表😀😀😀以及 end')).toBe(true);
    } finally {
      screen.destroy();
    }
  });
});

describe('text width', () => {
  it('counts the fast ranges as string-width does (letters, punctuation, box drawing, braille)', () => {
    const points: number[] = [];
    for (const [a, b] of [
      [0x20, 0x7e],
      [0xc0, 0x2ff],
      [0x2010, 0x2027],
      [0x2500, 0x257f],
      [0x2800, 0x28ff],
    ])
      for (let c = a; c <= b; c++) points.push(c);
    const wrong = points.filter((c) => textWidth(String.fromCodePoint(c)) !== stringWidth(String.fromCodePoint(c)));
    expect(wrong.map((c) => c.toString(16))).toEqual([]);
  });

  it('measures as the terminal draws (wcwidth: code point by code point), not by grapheme', async () => {
    await preloadTextWidth();
    const cases: [string, number][] = [
      ['', 0],
      ['gemini · default · MCP 0/0', 26],
      ['⠋ thinking…', 11],
      ['é', 1],
      ['e\u0301', 1],
      ['中文', 4],
      ['✅🚀', 4],
      // Text-presentation symbols: one column in tmux, xterm and VTE (string-width says two).
      ['⚠', 1],
      ['❤ ✔', 3],
      ['⚠\ufe0f', 1],
      ['©', 1],
      ['👍🏽', 4],
      ['👨\u200d👩\u200d👧', 6],
      ['\x1b[31mred\x1b[39m', 3],
      ['a\tb', 2],
      ['soft\u00adhyphen', 10],
    ];
    for (const [s, w] of cases) expect([s, textWidth(s)]).toEqual([s, w]);
  });
});

describe('blessed as the app loads it', () => {
  it('draws through capabilities compiled on first use', async () => {
    patchBlessedWideChars();
    const blessedLite = loadBlessed();
    const chunks: string[] = [];
    const output = Object.assign(new PassThrough(), { columns: 30, rows: 4, isTTY: true });
    output.on('data', (c: Buffer) => chunks.push(c.toString('utf8')));
    const screen = blessedLite.screen({
      output,
      input: new PassThrough(),
      terminal: 'xterm-256color',
      fullUnicode: true,
      smartCSR: true,
      warnings: false,
    });
    try {
      const box = blessedLite.box({ parent: screen, top: 1, left: 2, width: 20, height: 1, tags: false });
      box.setContent('hi 中文');
      screen.render();
      expect(
        screen.lines[1]
          .map((c) => c[1])
          .join('')
          .replace(/\x03/g, ''),
      ).toContain('hi 中文');
      const tput = screen.tput as unknown as { cup(row: number, col: number): string; sgr0(): string };
      expect(tput.cup(5, 10)).toBe('\x1b[6;11H');
      expect(tput.sgr0()).toMatch(/^\x1b\[m|^\x1b\[0m|^\x1b\(B\x1b\[m/);
      // blessed flushes its output buffer on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(chunks.join('')).toContain('\x1b[?1049h');
      expect(chunks.join('')).toContain('hi');
    } finally {
      screen.destroy();
    }
  });
});

describe('tool cards', () => {
  const tool = {
    exposedName: 'shell__run_shell_command',
    serverAlias: 'shell',
    toolName: 'run_shell_command',
    description: '',
    readOnly: false,
    confirmsInCall: true,
    trusted: false,
    builtIn: true,
  };
  const call = (over: Partial<ToolCall>): ToolCall => ({
    request: {
      callId: 'c1',
      name: 'shell__run_shell_command',
      args: { command: 'make' },
      isClientInitiated: false,
      promptId: 'p',
    },
    status: 'executing',
    tool,
    startTime: 1_000,
    ...over,
  });

  it('counts elapsed time from the start of execution, not of the approval wait', () => {
    const card = stripSgr(formatToolCard(call({}), plain, { width: 80, now: 31_000, execStart: 29_000 }));
    expect(card).toContain('executing 2.0s');
  });

  it('shows a call whose server is asking as awaiting approval', () => {
    const conv = new Conversation(plain);
    conv.upsertTool(call({}));
    conv.setAsking('c1', true);
    expect(conv.render(80)).toMatch(/\? shell__run_shell_command make\n\s+awaiting approval/);
    conv.setAsking('c1', false);
    expect(conv.render(80)).toMatch(/executing 0\.\ds/);
  });

  it('colours every row of a multi-line error', () => {
    const card = formatToolCard(
      call({
        status: 'error',
        endTime: 2_000,
        response: {
          callId: 'c1',
          responseParts: [],
          resultDisplay: undefined,
          error: 'first\nsecond',
          errorType: undefined,
        } as never,
      }),
      p256,
      { width: 80, now: 3_000 },
    );
    const rows = card.split('\n').filter((l) => /first|second/.test(l));
    expect(rows).toHaveLength(2);
    for (const r of rows) expect(r).toMatch(/\x1b\[38;5;203m(first|second)/);
  });
});

describe('palette under blessed', () => {
  it('draws faint and italic with codes blessed understands', () => {
    expect(p256.dim('x')).toBe('\x1b[38;5;242mx\x1b[39m');
    expect(p256.italic('x')).toBe('\x1b[4mx\x1b[24m');
  });
});

describe('history file', () => {
  it('is found before the runtime loads, where the runtime keeps it', () => {
    const env = { GEMINI_CLI_HOME: '/tmp/some-home' };
    expect(InputHistory.defaultFile('/work/project', env)).toBe(
      InputHistory.fileFor(defaultProjectTempDir('/work/project', env)),
    );
  });
});
