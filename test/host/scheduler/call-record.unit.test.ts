import { describe, expect, it } from 'vitest';
import { applyProgress, decide, errorResponse, newRecord, snapshot } from '../../../host/scheduler/call-record.js';
import type { ToolRef } from '../../../host/scheduler/types.js';

const request = { callId: 'c1', name: 'fs__read_file', args: {}, isClientInitiated: false, promptId: 'p' };
const tool = { exposedName: 'fs__read_file', serverAlias: 'fs', toolName: 'read_file' } as ToolRef;

describe('call records: a mutable record, a strict union at each snapshot', () => {
  it('a snapshot has only the fields of its status', () => {
    const r = newRecord(request);
    expect(snapshot(r)).toEqual({ request, startTime: r.startTime, status: 'validating' });
    r.tool = tool;
    r.status = 'executing';
    r.liveOutput = 'x';
    expect(snapshot(r)).toEqual({ request, startTime: r.startTime, status: 'executing', tool, liveOutput: 'x' });
  });

  it('a record missing a field its status needs is a scheduler bug, said loudly', () => {
    const r = newRecord(request);
    r.status = 'awaiting_approval';
    r.tool = tool;
    expect(() => snapshot(r)).toThrow('tool call c1 is awaiting_approval without confirmation');
    r.status = 'success';
    expect(() => snapshot(r)).toThrow('without endTime');
  });

  it('an ended call carries its response and end time', () => {
    const r = newRecord(request);
    r.status = 'error';
    r.endTime = r.startTime + 5;
    r.response = errorResponse(r, 'boom', 'execution_failed');
    const s = snapshot(r);
    expect(s.status).toBe('error');
    expect(s.status === 'error' && s.response.responseParts).toEqual([
      { functionResponse: { id: 'c1', name: 'fs__read_file', response: { error: 'boom' } } },
    ]);
  });

  it('the strongest decision stands when a call is decided more than once', () => {
    const r = newRecord(request);
    decide(r, 'accept');
    decide(r, 'auto_accept');
    expect(r.outcome).toBe('accept');
    decide(r, 'reject');
    decide(r, 'modify');
    expect(r.outcome).toBe('reject');
  });

  it('progress moves the percentage; messages join the live output with its tail kept', () => {
    const r = newRecord(request);
    expect(applyProgress(r, { progress: 1, total: 4 })).toBeUndefined();
    expect(r.progress).toEqual({ progress: 1, total: 4 });
    applyProgress(r, { progress: 2, message: 'a'.repeat(25_000) });
    expect(applyProgress(r, { progress: 3, message: 'tail' })).toBe('tail');
    expect(r.liveOutput!.length).toBe(20_000);
    expect(r.liveOutput!.endsWith('\ntail')).toBe(true);
  });
});
