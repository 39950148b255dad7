import { describe, expect, it } from 'vitest';
import { META } from '../../../protocol/meta.js';
import { newRecord } from '../../../host/scheduler/call-record.js';
import { callMeta, terminalEvent } from '../../../host/scheduler/call-wire.js';
import type { ToolRef } from '../../../host/scheduler/types.js';

const request = { callId: 'c1', name: 'shell__run_shell_command', args: {}, prompt_id: 'p' };
const size = () => ({ cols: 80, rows: 24 });

describe('callMeta', () => {
  it('carries the id, the pre-approval and the terminal of the main conversation only', () => {
    expect(callMeta(request, false)).toEqual({ [META.callId]: 'c1' });
    expect(callMeta(request, true, size)).toEqual({
      [META.callId]: 'c1',
      [META.preapproved]: true,
      [META.terminal]: { cols: 80, rows: 24 },
    });
    // A subagent's call: nobody types into it.
    expect(callMeta({ ...request, parentCallId: 'agent' }, false, size)).toEqual({ [META.callId]: 'c1' });
    // A chat whose terminal has no size yet.
    expect(callMeta(request, false, () => undefined)).toEqual({ [META.callId]: 'c1' });
  });
});

describe('terminalEvent', () => {
  const call = { ...newRecord(request), tool: { serverAlias: 'shell' } as ToolRef };

  it('turns the bytes a terminal printed into an event naming the server and pid; anything else is none', () => {
    expect(
      terminalEvent(call, { progress: 1, _meta: { [META.terminalOutput]: { pid: 42, data: '\x1b[1mhi' } } }),
    ).toEqual({ type: 'tool_terminal', callId: 'c1', serverAlias: 'shell', pid: 42, data: '\x1b[1mhi' });
    expect(terminalEvent(call, { progress: 1, message: 'plain' })).toBeUndefined();
    expect(
      terminalEvent(call, { progress: 1, _meta: { [META.terminalOutput]: { pid: '42', data: 'x' } } }),
    ).toBeUndefined();
    expect(
      terminalEvent(call, { progress: 1, _meta: { [META.terminalOutput]: { pid: 4.2, data: 'x' } } }),
    ).toBeUndefined();
    expect(
      terminalEvent(newRecord(request), { progress: 1, _meta: { [META.terminalOutput]: { pid: 1, data: 'x' } } }),
    ).toBeUndefined();
  });
});
