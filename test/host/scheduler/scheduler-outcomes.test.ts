import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SchedulerEvent } from '../../../host/scheduler/types.js';
import { ScriptedConfirmer } from '../../helpers/scripted-confirmer.js';
import { ENTRY } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { startHarness, type Harness } from './scheduler-harness.js';
import { bundledModule } from '../../helpers/paths.js';

const FIXTURE = bundledModule(fileURLToPath(new URL('./scheduler-fixture-server.mjs', import.meta.url)));

describe('scheduler records how each call was decided (ToolCall.outcome)', () => {
  const dir = tempDir();
  const confirmer = new ScriptedConfirmer();
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({
      servers: [
        { alias: 'filesystem', entry: ENTRY.filesystem, args: ['--root', dir], builtIn: true },
        // Not built in: its calls get the host's own pre-call dialog.
        { alias: 'fx', entry: FIXTURE, args: ['--log', join(dir, 'fx.log'), '--root', dir] },
      ],
      confirmer,
      projectTempDir: dir,
    });
  });
  afterAll(() => h?.close());

  const write = (name: string, content = 'one\n') => ({
    name: 'filesystem__write_file',
    args: { file_path: join(dir, name), content },
  });
  const lastUpdate = (callId: string) =>
    h.events
      .filter(
        (e): e is Extract<SchedulerEvent, { type: 'tool_call_update' }> =>
          e.type === 'tool_call_update' && e.call.request.callId === callId,
      )
      .at(-1)!.call;

  it('in-call confirmations: proceed → accept, modify → modify, cancel → reject', async () => {
    // The server asks again with the user's content after a modify; the modify is what stands.
    confirmer.answers.push(
      { decision: 'proceed_once' },
      { decision: 'modify', content: 'edited\n' },
      { decision: 'proceed_once' },
      { decision: 'cancel' },
    );
    const [a] = await h.run([{ ...write('a.txt'), callId: 'a' }]);
    const [b] = await h.run([{ ...write('b.txt'), callId: 'b' }]);
    const [c] = await h.run([{ ...write('c.txt'), callId: 'c' }]);
    expect(confirmer.seen.map((r) => r.source)).toEqual(['elicitation', 'elicitation', 'elicitation', 'elicitation']);
    expect([a.status, b.status, c.status]).toEqual(['success', 'success', 'cancelled']);
    expect([a.outcome, b.outcome, c.outcome]).toEqual(['accept', 'modify', 'reject']);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('edited\n');
    expect(existsSync(join(dir, 'c.txt'))).toBe(false);
    // consumers see it on the events too
    expect(lastUpdate('b').outcome).toBe('modify');
  });

  it('pre-call asks: proceed (once or always) → accept, cancel → reject, then the always rule auto-accepts', async () => {
    confirmer.seen.length = 0;
    confirmer.answers.push(
      { decision: 'proceed_once' },
      { decision: 'cancel' },
      { decision: 'proceed_always', scope: 'tool' },
    );
    const [once] = await h.run([{ name: 'fx__mutate', args: { id: 'm1' } }]);
    const [no] = await h.run([{ name: 'fx__mutate', args: { id: 'm2' } }]);
    const [always] = await h.run([{ name: 'fx__mutate', args: { id: 'm3' } }]);
    const [later] = await h.run([{ name: 'fx__mutate', args: { id: 'm4' } }]);
    expect(confirmer.seen.map((r) => r.source)).toEqual(['pre-call', 'pre-call', 'pre-call']);
    expect([once.status, no.status, always.status, later.status]).toEqual([
      'success',
      'cancelled',
      'success',
      'success',
    ]);
    expect([once.outcome, no.outcome, always.outcome, later.outcome]).toEqual([
      'accept',
      'reject',
      'accept',
      'auto_accept',
    ]);
  });

  it('policy decisions: read-only and yolo → auto_accept, excluded → reject, unknown tool → none', async () => {
    confirmer.seen.length = 0;
    const [read, unknown] = await h.run([
      { name: 'filesystem__read_file', args: { absolute_path: join(dir, 'a.txt') } },
      { name: 'filesystem__nope', args: {} },
    ]);
    expect(read.outcome).toBe('auto_accept');
    expect(unknown.status).toBe('error');
    expect(unknown.outcome).toBeUndefined();
    h.policy.setApprovalMode('yolo');
    try {
      const [y] = await h.run([write('y.txt')]);
      expect([y.status, y.outcome]).toEqual(['success', 'auto_accept']);
    } finally {
      h.policy.setApprovalMode('default');
    }
    expect(confirmer.seen).toHaveLength(0);
  });

  it('a cancel ends the rest of the batch unasked, recorded as reject', async () => {
    confirmer.seen.length = 0;
    confirmer.answers.push({ decision: 'cancel' });
    const calls = await h.run([write('d.txt'), { name: 'fx__mutate', args: { id: 'm5' } }]);
    expect(calls.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(calls.map((c) => c.outcome)).toEqual(['reject', 'reject']);
    expect(confirmer.seen).toHaveLength(1);
  });
});

describe('PolicyEngine.isStaticallyDenied', () => {
  it('headless: asks without an allow rule are static denials; interactive: never', async () => {
    const { PolicyEngine } = await import('../../../host/policy/policy-engine.js');
    const tool = (
      serverAlias: string,
      toolName: string,
      extra: { readOnly?: boolean; trusted?: boolean; builtIn?: boolean } = {},
    ) => ({
      exposedName: `${serverAlias}__${toolName}`,
      serverAlias,
      toolName,
      readOnly: false,
      trusted: false,
      builtIn: true,
      ...extra,
    });
    const shell = tool('shell', 'run_shell_command');
    const write = tool('filesystem', 'write_file');
    const read = tool('filesystem', 'read_file', { readOnly: true });
    const ext = tool('gh', 'create_issue', { builtIn: false });
    const headless = new PolicyEngine({ interactive: false });
    expect([shell, write, read, ext].map((t) => headless.isStaticallyDenied(t))).toEqual([true, true, false, true]);
    headless.setApprovalMode('autoEdit');
    expect([shell, write, read, ext].map((t) => headless.isStaticallyDenied(t))).toEqual([true, false, false, true]);
    headless.setApprovalMode('yolo');
    expect([shell, write, read, ext].map((t) => headless.isStaticallyDenied(t))).toEqual([false, false, false, false]);

    const rules = new PolicyEngine({
      interactive: false,
      allowedTools: ['run_shell_command(git)'],
      allowedMcpServerNames: ['gh'],
    });
    expect([shell, write, ext].map((t) => rules.isStaticallyDenied(t))).toEqual([false, true, false]);
    const excluded = new PolicyEngine({ interactive: true, settings: { tools: { exclude: ['read_file'] } } });
    expect([read, write].map((t) => excluded.isStaticallyDenied(t))).toEqual([true, false]);
    const trusted = new PolicyEngine({ interactive: false });
    expect(trusted.isStaticallyDenied({ ...ext, trusted: true })).toBe(false);
  });
});
