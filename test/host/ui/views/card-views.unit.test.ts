import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../../../host/scheduler/types.js';
import { confirmBody } from '../../../../host/ui/views/confirm-view.js';
import { Conversation } from '../../../../host/ui/views/conversation.js';
import { renderDiff } from '../../../../host/ui/views/diff-view.js';
import { createPalette, stripSgr } from '../../../../host/ui/text/palette.js';
import { mcpStatusView } from '../../../../host/core/mcp-status-view.js';
import { renderOutput } from '../../../../host/ui/slash-commands/render-output.js';
import { describeArgs, formatToolCard } from '../../../../host/ui/views/tool-card.js';

const plain = createPalette(0);
const lines = (n: number) => Array.from({ length: n }, (_, i) => `out ${i + 1}`).join('\n');
const shell = (over: Partial<ToolCall>): ToolCall => ({
  request: {
    callId: 'c1',
    name: 'shell__run_shell_command',
    args: { command: 'npm test' },
    isClientInitiated: false,
    promptId: 'p',
  },
  status: 'success',
  startTime: 0,
  endTime: 10,
  ...over,
});

describe('long tool output', () => {
  const long = shell({ response: { callId: 'c1', responseParts: [], resultDisplay: lines(40) } });

  it('shows the last lines under a line saying how many of the first are hidden', () => {
    const card = stripSgr(formatToolCard(long, plain, { width: 80, now: 20 }));
    expect(card).toContain('… first 28 lines hidden (ctrl+o to expand)');
    expect(card).toContain('│ out 40');
    expect(card).not.toContain('│ out 28\n');
    expect(card.indexOf('hidden')).toBeLessThan(card.indexOf('out 29'));
  });

  it('expanded, shows every line', () => {
    const card = stripSgr(formatToolCard(long, plain, { width: 80, now: 20, expanded: true }));
    expect(card).not.toContain('hidden');
    expect(card).toContain('│ out 1\n');
  });

  it('the conversation offers Ctrl+O only while something is clipped, and expands every card', () => {
    const conv = new Conversation(plain);
    conv.upsertTool(shell({ response: { callId: 'c1', responseParts: [], resultDisplay: 'short' } }));
    conv.render(80);
    expect(conv.hasClipped).toBe(false);
    conv.upsertTool(
      shell({
        request: { ...long.request, callId: 'c2' },
        response: { callId: 'c2', responseParts: [], resultDisplay: lines(40) },
      }),
    );
    expect(conv.render(80)).toContain('hidden');
    expect(conv.hasClipped).toBe(true);
    conv.expandTools = true;
    conv.invalidateAll();
    expect(conv.render(80)).toContain('out 1\n');
    expect(conv.hasClipped).toBe(false);
  });
});

describe('cancelled commands', () => {
  it('keep what streamed and say they were cancelled', () => {
    const call = shell({
      status: 'cancelled',
      liveOutput: 'compiling…\nstep 1 done',
      response: { callId: 'c1', responseParts: [], resultDisplay: 'Command was cancelled.' },
    });
    const card = stripSgr(formatToolCard(call, plain, { width: 80, now: 20 }));
    expect(card).toContain('│ step 1 done');
    expect(card).toContain('^C cancelled');
    expect(card).toMatch(/- shell__run_shell_command/);
  });
});

describe('diffs', () => {
  const diff =
    'Index: a.txt\n===================================================================\n--- a.txt\tCurrent\n+++ a.txt\tProposed\n' +
    '@@ -9,3 +9,3 @@\n ctx\n-old\n+new\n tail\n@@ -40,1 +40,2 @@\n keep\n+added\n';

  it('drop the headers, number the lines (old for removals, new otherwise) and mark hunk gaps', () => {
    const out = stripSgr(renderDiff(diff, plain)).split('\n');
    expect(out).toEqual([' 9   ctx', '10 - old', '10 + new', '11   tail', '   ⋮', '40   keep', '41 + added']);
  });

  it('the dialog and the card render the same diff', () => {
    const body = stripSgr(
      confirmBody(
        {
          source: 'elicitation',
          callId: 'c',
          tool: {
            exposedName: 'filesystem__replace',
            serverAlias: 'filesystem',
            toolName: 'replace',
            description: '',
            readOnly: false,
            confirmsInCall: true,
            trusted: false,
            builtIn: true,
          },
          message: 'Apply?',
          detail: { kind: 'edit', title: 'Confirm Edit', filePath: '/w/a.txt', fileDiff: diff },
        },
        plain,
      ),
    );
    const card = stripSgr(
      formatToolCard(
        shell({
          request: {
            callId: 'e',
            name: 'filesystem__replace',
            args: { file_path: '/w/a.txt' },
            isClientInitiated: false,
            promptId: 'p',
          },
          response: {
            callId: 'e',
            responseParts: [],
            resultDisplay: {
              fileDiff: diff,
              fileName: 'a.txt',
              filePath: '/w/a.txt',
              originalContent: '',
              newContent: '',
              isNewFile: false,
            },
          },
        }),
        plain,
        // Expanded: every hunk, as the dialog shows them (collapsed, the card previews the first).
        { width: 80, now: 20, expanded: true },
      ),
    );
    for (const row of stripSgr(renderDiff(diff, plain)).split('\n')) {
      expect(body).toContain(row);
      expect(card).toContain(row);
    }
    expect(body).not.toContain('Index:');
    expect(card).not.toContain('====');
  });
});

describe('diffs: pairs and previews', () => {
  const twoHunks = ['@@ -1,2 +1,2 @@', '-a1', '-a2', '+b1', '+b2', '@@ -10,1 +10,1 @@', '-z', '+y', ''].join('\n');

  it('shows each removed line above the line that replaced it', () => {
    const rows = stripSgr(renderDiff(twoHunks, plain, { lineNumbers: false })).split('\n');
    expect(rows.slice(0, 4)).toEqual(['- a1', '+ b1', '- a2', '+ b2']);
  });

  it('previews only the first change, saying how many follow', () => {
    const rows = stripSgr(renderDiff(twoHunks, plain, { lineNumbers: false, firstHunk: true })).split('\n');
    expect(rows).toEqual(['- a1', '+ b1', '- a2', '+ b2', '⋮ 1 more change below']);
  });
});

describe('small things', () => {
  it("/memory add's card shows the saved message, not the JSON written for the model", () => {
    const json = JSON.stringify({ success: true, message: 'Okay, I\'ve remembered that: "tabs"' });
    const call = shell({
      request: {
        callId: 'm',
        name: 'memory__save_memory',
        args: { fact: 'tabs' },
        isClientInitiated: true,
        promptId: 'p',
      },
      response: {
        callId: 'm',
        responseParts: [{ functionResponse: { name: 'x', response: { output: json } } }],
        responseText: json,
        resultDisplay: 'Okay, I\'ve remembered that: "tabs"',
      },
    });
    const card = stripSgr(formatToolCard(call, plain, { width: 80, now: 20 }));
    expect(card).toContain('remembered that: "tabs"');
    expect(card).not.toContain('{"success"');
  });

  it("/mcp shows a failed server's stderr once", () => {
    const state = {
      alias: 'bad',
      status: 'failed',
      error: 'Connection closed\nstderr:\nboom: no such file',
      stderrTail: 'boom: no such file\n',
      tools: [],
      prompts: [],
    };
    const out = stripSgr(renderOutput(mcpStatusView([state] as never, false), plain));
    expect(out.match(/boom: no such file/g)).toHaveLength(1);
  });

  it("a third-party result's untrusted fence is not shown", () => {
    const call = shell({
      request: { callId: 'u', name: 'ext__echo', args: {}, isClientInitiated: true, promptId: 'p' },
      response: {
        callId: 'u',
        responseParts: [
          { functionResponse: { name: 'x', response: { output: '<untrusted_context>\nhello\n</untrusted_context>' } } },
        ],
        responseText: '<untrusted_context>\nhello\n</untrusted_context>',
        resultDisplay: '',
      },
    });
    const card = stripSgr(formatToolCard(call, plain, { width: 80, now: 20 }));
    expect(card).toContain('│ hello');
    expect(card).not.toContain('untrusted_context');
  });
});

describe('the shell dialog', () => {
  const ask = (background?: boolean) =>
    stripSgr(
      confirmBody(
        {
          source: 'elicitation',
          callId: 'b',
          tool: {
            exposedName: 'shell__run_shell_command',
            serverAlias: 'shell',
            toolName: 'run_shell_command',
            description: '',
            readOnly: false,
            confirmsInCall: true,
            trusted: false,
            builtIn: true,
          },
          message: 'Confirm Shell Command',
          detail: { kind: 'exec', title: 'Confirm Shell Command', command: 'npm run dev', background },
        },
        plain,
      ),
    );

  it('says when the command will keep running in the background', () => {
    expect(ask(true)).toContain(
      'runs in the background: it keeps running after this turn, until stopped or the chat ends',
    );
    expect(ask()).not.toContain('background');
  });
});

describe("a built-in call's card header without a path or command", () => {
  it("is Gemini CLI's title of the call, on one line, not the raw arguments", () => {
    expect(
      describeArgs('write_todos', {
        todos: [
          { description: 'a', status: 'pending' },
          { description: 'b', status: 'pending' },
        ],
      }),
    ).toBe('Set 2 todo(s)');
    expect(describeArgs('memory__ask_user', { questions: [{ question: 'Draft:\\n\\n# Spec\nok?' }] })).toBe(
      'Asking user: Draft: # Spec ok?',
    );
    expect(describeArgs('filesystem__write_file', { file_path: '/w/a.md', content: 'x' })).toBe('/w/a.md');
    expect(describeArgs('ext__tool', { a: 1 })).toBe('{"a":1}');
  });
});
