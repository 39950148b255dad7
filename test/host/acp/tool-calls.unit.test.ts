import { describe, expect, it } from 'vitest';
import {
  callStatus,
  confirmationToolCall,
  resultContent,
  toolKind,
  toolLocations,
  toolTitle,
} from '../../../host/acp/tool-calls.js';
import type { ConfirmationRequest, ToolCall, ToolRef } from '../../../host/scheduler/types.js';

const ref = (serverAlias: string, toolName: string, over: Partial<ToolRef> = {}): ToolRef => ({
  exposedName: toolName,
  serverAlias,
  toolName,
  description: '',
  inputSchema: {},
  readOnly: false,
  confirmsInCall: false,
  trusted: false,
  builtIn: true,
  ...over,
});
const request = { callId: 'c1', name: 'x', args: {}, isClientInitiated: false, promptId: 'p' };
const ended = (status: 'success' | 'error' | 'cancelled', response: Record<string, unknown>): ToolCall =>
  ({
    status,
    request,
    startTime: 0,
    endTime: 1,
    response: { callId: 'c1', responseParts: [], responseText: '', ...response },
  }) as ToolCall;

describe('toolKind', () => {
  it("a built-in's kind comes from the catalogue; another server's is read when read-only, else other", () => {
    expect(toolKind(ref('filesystem', 'read_file'), 'read_file')).toBe('read');
    expect(toolKind(ref('filesystem', 'write_file'), 'write_file')).toBe('edit');
    expect(toolKind(ref('shell', 'run_shell_command'), 'run_shell_command')).toBe('execute');
    expect(toolKind(ref('crm', 'get', { builtIn: false, readOnly: true }), 'crm__get')).toBe('read');
    expect(toolKind(ref('crm', 'write_file', { builtIn: false }), 'crm__write_file')).toBe('other');
  });

  it('a replayed call without its tool is judged by its bare name', () => {
    expect(toolKind(undefined, 'write_file')).toBe('edit');
    expect(toolKind(undefined, 'mystery_tool')).toBe('other');
  });
});

describe('toolLocations', () => {
  it('every path argument, made absolute against the workspace', () => {
    expect(toolLocations({ file_path: 'src/a.ts', dir_path: '/abs/dir', path: '  ', other: 'x.ts' }, '/w')).toEqual([
      { path: '/w/src/a.ts' },
      { path: '/abs/dir' },
    ]);
  });

  it('paths lists are cut at 20 and keep only strings', () => {
    const paths = [...Array.from({ length: 25 }, (_, i) => `f${i}`), 7];
    const out = toolLocations({ paths }, '/w');
    expect(out).toHaveLength(20);
    expect(out[0]).toEqual({ path: '/w/f0' });
  });
});

describe('toolTitle', () => {
  it("Gemini CLI's titles for built-ins, with paths relative to the workspace", () => {
    expect(toolTitle('write_file', { file_path: '/w/docs/a.md' }, '/w', ref('filesystem', 'write_file'))).toBe(
      'Writing to docs/a.md',
    );
    expect(toolTitle('run_shell_command', { command: 'npm test' }, '/w', ref('shell', 'run_shell_command'))).toBe(
      'npm test',
    );
  });

  it("another server's tool: its command argument, else its title, else its name", () => {
    const other = (title?: string) => ref('crm', 'run', { builtIn: false, title });
    expect(toolTitle('crm__run', { command: 'sync' }, '/w', other())).toBe('sync');
    expect(toolTitle('crm__run', {}, '/w', other('Run a job'))).toBe('Run a job (crm__run)');
    expect(toolTitle('crm__run', {}, '/w', other())).toBe('crm__run');
  });
});

describe('confirmationToolCall', () => {
  const tool = ref('filesystem', 'write_file');
  it('an edit shows the diff, with the kind Gemini CLI marks it with', () => {
    const edit = (originalContent: string | null, newContent: string): ConfirmationRequest => ({
      source: 'elicitation',
      callId: 'c9',
      tool,
      args: { file_path: '/w/a.md' },
      message: 'm',
      detail: { kind: 'edit', title: 't', filePath: '/w/a.md', originalContent, newContent },
    });
    const created = confirmationToolCall(edit(null, 'new'), '/w');
    expect(created).toMatchObject({ toolCallId: 'c9', kind: 'edit', status: 'pending', title: 'Writing to a.md' });
    expect(created.locations).toEqual([{ path: '/w/a.md' }]);
    expect(created.content).toEqual([
      { type: 'diff', path: '/w/a.md', oldText: null, newText: 'new', _meta: { kind: 'add' } },
    ]);
    expect(confirmationToolCall(edit('old', ''), '/w').content?.[0]).toMatchObject({ _meta: { kind: 'delete' } });
    expect(confirmationToolCall(edit('old', 'new'), '/w').content?.[0]).toMatchObject({
      oldText: 'old',
      _meta: { kind: 'modify' },
    });
  });

  it('a pre-call question shows its title and the arguments', () => {
    const req: ConfirmationRequest = {
      source: 'pre-call',
      callId: 'c1',
      tool,
      args: { file_path: 'a.md' },
      title: 'Allow?',
    };
    const update = confirmationToolCall(req, '/w');
    expect(update.rawInput).toEqual({ file_path: 'a.md' });
    expect(update.locations).toEqual([{ path: '/w/a.md' }]);
    expect(update.content).toEqual([
      { type: 'content', content: { type: 'text', text: 'Allow?\n\n{\n  "file_path": "a.md"\n}' } },
    ]);
  });
});

describe('resultContent and callStatus', () => {
  it('the display text, else the error, else the model text; nothing for an empty result', () => {
    expect(resultContent(ended('success', { resultDisplay: 'shown', responseText: 'model' }))).toEqual([
      { type: 'content', content: { type: 'text', text: 'shown' } },
    ]);
    expect(resultContent(ended('error', { error: 'boom', responseText: 'model' }))[0]).toMatchObject({
      content: { text: 'boom' },
    });
    expect(resultContent(ended('success', { responseText: 'model' }))[0]).toMatchObject({ content: { text: 'model' } });
    expect(resultContent(ended('success', {}))).toEqual([]);
  });

  it('a cancelled call says so first', () => {
    expect(resultContent(ended('cancelled', { responseText: 'by the user' }))[0]).toMatchObject({
      content: { text: 'Cancelled. by the user' },
    });
  });

  it('an edit result is its diff', () => {
    const call = ended('success', {
      resultDisplay: { fileDiff: 'd', fileName: 'a', filePath: '/w/a', originalContent: 'x', newContent: 'y' },
    });
    expect(resultContent(call)).toEqual([
      { type: 'diff', path: '/w/a', oldText: 'x', newText: 'y', _meta: { kind: 'modify' } },
    ]);
  });

  it('ACP has no cancelled status: it is failed', () => {
    const st = (status: string) => callStatus({ status } as ToolCall);
    expect(['success', 'error', 'cancelled', 'executing', 'awaiting_approval', 'validating'].map(st)).toEqual([
      'completed',
      'failed',
      'failed',
      'in_progress',
      'pending',
      'pending',
    ]);
  });
});
