import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Confirmer, SchedulerEvent, ToolCall } from '../../../host/scheduler/types.js';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { startHarness, type Harness } from './scheduler-harness.js';

/** Which optional fields each state may carry; anything else present is a leak from another state. */
const ALLOWED: Record<ToolCall['status'], string[]> = {
  validating: ['tool'],
  scheduled: ['tool'],
  awaiting_approval: ['tool', 'confirmation', 'liveOutput', 'progress'],
  executing: ['tool', 'liveOutput', 'progress'],
  success: ['tool', 'endTime', 'response', 'liveOutput', 'progress'],
  error: ['tool', 'endTime', 'response', 'liveOutput', 'progress'],
  cancelled: ['tool', 'endTime', 'response', 'liveOutput', 'progress'],
};
const BASE = ['request', 'startTime', 'outcome', 'waitedMs', 'status'];

describe('tool-call states carry only their own fields (real scheduler and servers)', () => {
  const dir = tempDir('call-states-');
  let h: Harness;
  const answers: Array<'proceed_once' | 'cancel'> = [];
  const confirmer: Confirmer = { confirm: async () => ({ decision: answers.shift() ?? 'cancel' }) };

  beforeAll(async () => {
    h = await startHarness({
      servers: [
        { alias: 'filesystem', entry: ENTRY.filesystem, args: ['--root', dir], builtIn: true },
        { alias: 'shell', entry: ENTRY.shell, args: ['--root', dir], builtIn: true },
      ],
      confirmer,
      projectTempDir: dir,
    });
  });
  afterAll(() => h?.close());

  it('every emitted state matches its status; the model text is stored once', async () => {
    answers.push('proceed_once', 'cancel');
    const calls = await h.run([
      { name: 'filesystem__write_file', args: { file_path: join(dir, 'a.txt'), content: 'a\n' }, callId: 's1' },
      { name: 'shell__run_shell_command', args: { command: 'echo hi' }, callId: 's2' },
      { name: 'nope__missing', args: {}, callId: 's3' },
    ]);
    const updates = h.events.filter(
      (e): e is Extract<SchedulerEvent, { type: 'tool_call_update' }> => e.type === 'tool_call_update',
    );
    const seen = new Set<string>();
    for (const { call } of [...updates, ...calls.map((c) => ({ call: c }))]) {
      seen.add(call.status);
      const extra = Object.keys(call).filter((k) => !BASE.includes(k) && !ALLOWED[call.status].includes(k));
      expect({ status: call.status, extra }).toEqual({ status: call.status, extra: [] });
      if (call.status === 'awaiting_approval') expect(call.confirmation.source).toBe('elicitation');
      if (call.status === 'success' || call.status === 'error' || call.status === 'cancelled') {
        const fr = call.response.responseParts[0]?.functionResponse?.response as { output?: string; error?: string };
        expect(call.response.responseText).toBe(fr.output ?? fr.error);
      }
    }
    expect([...seen].sort()).toEqual([
      'awaiting_approval',
      'cancelled',
      'error',
      'executing',
      'scheduled',
      'success',
      'validating',
    ]);
    expect(calls.map((c) => c.status)).toEqual(['success', 'cancelled', 'error']);
  });
});
