import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../../../host/scheduler/types.js';
import { choicesLine, confirmBody, confirmChoices } from '../../../../host/ui/views/confirm-view.js';
import { diffStats, renderDiff } from '../../../../host/ui/views/diff-view.js';
import { colorDepth, createPalette, stripSgr } from '../../../../host/ui/text/palette.js';
import { formatStatusLine, nextApprovalMode, shortenPath } from '../../../../host/ui/views/status-line.js';
import { describeArgs, formatToolCard } from '../../../../host/ui/views/tool-card.js';
import { Conversation } from '../../../../host/ui/views/conversation.js';

const p256 = createPalette(256);
const plain = createPalette(0);
const tool = {
  exposedName: 'filesystem__write_file',
  serverAlias: 'filesystem',
  toolName: 'write_file',
  description: 'Writes',
  readOnly: false,
  confirmsInCall: true,
  trusted: false,
  builtIn: true,
};

describe('palette', () => {
  it('degrades with the terminal', () => {
    expect(colorDepth({ NO_COLOR: '1', TERM: 'xterm-256color' }, 256)).toBe(0);
    expect(colorDepth({ TERM: 'dumb' }, 8)).toBe(0);
    expect(colorDepth({ TERM: 'xterm-256color' }, 256)).toBe(256);
    expect(colorDepth({ TERM: 'xterm' }, 8)).toBe(8);
    expect(createPalette(8).green('x')).toBe('\x1b[32mx\x1b[39m');
    expect(p256.green('x')).toContain('38;5;');
    expect(plain.green('x')).toBe('x');
  });
});

describe('diff view', () => {
  const diff = '--- a.txt\tCurrent\n+++ a.txt\tProposed\n@@ -1 +1 @@\n-old\n+new\n';
  it('colours additions and removals line by line, without file headers', () => {
    const out = renderDiff(diff, createPalette(8));
    expect(out).toContain('\x1b[31m- old');
    expect(out).toContain('\x1b[32m+ new');
    expect(stripSgr(out)).not.toContain('@@');
    expect(stripSgr(out)).not.toContain('a.txt');
    expect(diffStats(diff)).toEqual({ added: 1, removed: 1 });
  });
});

describe('status line', () => {
  it('fits the width and cycles approval modes', () => {
    const s = {
      model: 'gemini-2.5-flash',
      approvalMode: 'autoEdit' as const,
      serversReady: 3,
      serversTotal: 4,
      serversFailed: 0,
      tokens: 12345,
      cwd: '/home/u/projects/very/long/path/to/work',
      home: '/home/u',
    };
    const line = stripSgr(formatStatusLine(s, 90, p256));
    expect(line.length).toBeLessThanOrEqual(90);
    expect(line).toContain('MCP 3/4');
    expect(line).toContain('12k tokens');
    expect(line).toContain('auto-edit');
    expect(line.startsWith('~/')).toBe(true);
    expect(nextApprovalMode('default')).toBe('autoEdit');
    expect(nextApprovalMode('autoEdit')).toBe('yolo');
    expect(nextApprovalMode('yolo')).toBe('plan');
    expect(nextApprovalMode('plan')).toBe('default');
    expect(shortenPath('/a/b/c/d/e/f/g', undefined, 10).length).toBeLessThanOrEqual(10);
  });
});

describe('tool cards', () => {
  const base: ToolCall = {
    request: {
      callId: 'c1',
      name: 'shell__run_shell_command',
      args: { command: 'ls -la' },
      isClientInitiated: false,
      promptId: 'p',
    },
    status: 'executing',
    startTime: 1000,
    liveOutput: 'line1\nline2',
  };
  it('shows status, elapsed time and live output', () => {
    const text = stripSgr(formatToolCard(base, p256, { width: 80, now: 3500 }));
    expect(text).toContain('shell__run_shell_command ls -la');
    expect(text).toContain('executing 2.5s');
    expect(text).toContain('│ line2');
  });
  it('shows a diff for edits and errors in red', () => {
    const ok: ToolCall = {
      ...base,
      request: { ...base.request, name: 'filesystem__write_file', args: { file_path: '/w/a.txt' } },
      status: 'success',
      endTime: 2000,
      response: {
        callId: 'c1',
        responseParts: [],
        resultDisplay: {
          fileDiff: '@@ -1 +1 @@\n-a\n+b\n',
          fileName: 'a.txt',
          filePath: '/w/a.txt',
          originalContent: 'a',
          newContent: 'b',
          isNewFile: false,
        },
      },
    };
    const text = stripSgr(formatToolCard(ok, p256, { width: 80, now: 3000 }));
    expect(text).toContain('a.txt +1 −1');
    expect(text).toMatch(/│ 1 \+ b/);
    const err: ToolCall = { ...base, status: 'error', response: { callId: 'c1', responseParts: [], error: 'boom' } };
    expect(formatToolCard(err, createPalette(8), { width: 80, now: 0 })).toContain('\x1b[31mboom');
    expect(describeArgs('x__y', { a: 1 })).toBe('{"a":1}');
    const passive: ToolCall = {
      ...base,
      request: { ...base.request, isClientInitiated: true },
      status: 'success',
      response: {
        callId: 'c1',
        responseParts: [{ functionResponse: { name: 'x', response: { output: '[DIR] src\nnotes.txt' } } }],
        responseText: '[DIR] src\nnotes.txt',
        resultDisplay: 'Found 2 item(s).',
      },
    };
    const shown = stripSgr(formatToolCard(passive, p256, { width: 80, now: 0 }));
    expect(shown).toContain('Found 2 item(s).');
    expect(shown).toContain('│ notes.txt');
  });
});

describe('confirmation view', () => {
  it('offers kind-specific choices', () => {
    const edit = {
      source: 'elicitation' as const,
      callId: 'c',
      tool,
      message: 'Apply?',
      detail: {
        kind: 'edit' as const,
        title: 'Confirm Edit',
        filePath: '/w/a.txt',
        fileDiff: '@@ -1 +1 @@\n-a\n+b\n',
        newContent: 'b',
      },
    };
    expect(confirmChoices(edit, true).map((c) => c.key)).toEqual(['y', 'a', 'e', 'n']);
    expect(stripSgr(confirmBody(edit, p256))).toContain('1 + b');
    const exec = {
      ...edit,
      detail: { kind: 'exec' as const, title: 'Run?', command: 'git log | head', rootCommands: ['git', 'head'] },
    };
    expect(stripSgr(choicesLine(confirmChoices(exec, true), p256))).toContain('always allow git, head');
    const pre = {
      source: 'pre-call' as const,
      callId: 'c',
      tool: { ...tool, builtIn: false, serverAlias: 'ext' },
      args: { q: 1 },
      title: 'Allow?',
    };
    expect(confirmChoices(pre, true).map((c) => (c.scope ? `${c.decision}_${c.scope}` : c.decision))).toEqual([
      'proceed_once',
      'proceed_always_tool',
      'proceed_always_server',
      'cancel',
    ]);
    expect(confirmBody(pre, plain)).toContain('"q": 1');
  });
});

describe('conversation', () => {
  it('re-renders only what changed and keys tool cards by call id', () => {
    const conv = new Conversation(plain);
    conv.add({ kind: 'user', text: 'hi' });
    const m = conv.add({ kind: 'model', text: 'Hel', streaming: true });
    conv.update(m, (it) => {
      if (it.kind === 'model') it.text += 'lo';
    });
    const call: ToolCall = {
      request: { callId: 'x', name: 'a__b', args: {}, isClientInitiated: true, promptId: 'p' },
      status: 'validating',
      startTime: 0,
    };
    conv.upsertTool(call);
    conv.upsertTool({
      ...call,
      status: 'success',
      response: { callId: 'x', responseParts: [], resultDisplay: 'done!' },
    });
    const out = conv.render(60);
    expect(out).toContain('> hi');
    expect(out).toContain('✦ Hello');
    expect(out.match(/a__b/g)).toHaveLength(1);
    expect(out).toContain('done!');
    conv.add({ kind: 'thought', subject: 'Planning', description: 'secret details' });
    expect(conv.render(60)).not.toContain('secret details');
    conv.showThoughts = true;
    conv.invalidateAll();
    expect(conv.render(60)).toContain('secret details');
  });
});
