import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPassiveCalls, runPassiveCall } from '../../../host/passive-call.js';
import { createHostRuntime, type HostRuntime } from '../../../host/core/runtime.js';
import { ApprovalBroker } from '../../../host/scheduler/approvals.js';
import { PolicyEngine } from '../../../host/policy/policy-engine.js';
import type {
  ConfirmationRequest,
  Confirmer,
  ToolCallRequestInfo,
  SchedulerEvent,
} from '../../../host/scheduler/types.js';
import { ScriptedConfirmer } from '../../helpers/scripted-confirmer.js';
import { META } from '../../../protocol/meta.js';
import { statusTrail } from './scheduler-harness.js';
import { workspace } from './scheduler-workspace.js';

let n = 0;
const req = (name: string, args: Record<string, unknown>): ToolCallRequestInfo => ({
  callId: `r${++n}`,
  name,
  args,
  isClientInitiated: false,
  promptId: 'p',
});

describe('runtime: built-in servers, edits confirmed through elicitation', () => {
  const { dir, env } = workspace(['filesystem', 'shell']);
  const confirmer = new ScriptedConfirmer();
  const events: SchedulerEvent[] = [];
  let rt: HostRuntime;

  beforeAll(async () => {
    rt = await createHostRuntime({ cwd: dir, env, interactive: true, confirmer });
    rt.scheduler.on('event', (e: SchedulerEvent) => events.push(e));
    await rt.manager.whenSettled();
    expect(rt.manager.state('filesystem')?.status).toBe('connected');
  });
  afterAll(() => rt?.close());
  const signal = () => new AbortController().signal;

  it('approved once: the diff is shown as an elicitation, the file is written', async () => {
    confirmer.seen = [];
    confirmer.answers = [{ decision: 'proceed_once' }];
    const file = join(dir, 'a.txt');
    const r = req('filesystem__write_file', { file_path: file, content: 'hello\n' });
    const [call] = await rt.scheduler.schedule([r], signal());
    expect(call.status).toBe('success');
    expect(readFileSync(file, 'utf8')).toBe('hello\n');
    expect(confirmer.seen).toHaveLength(1);
    expect(confirmer.seen[0]).toMatchObject({
      source: 'elicitation',
      callId: r.callId,
      detail: { kind: 'edit', callId: r.callId },
    });
    expect(statusTrail(events, r.callId)).toEqual([
      'validating',
      'scheduled',
      'executing',
      'awaiting_approval',
      'executing',
      'success',
    ]);
  });

  it('declined: nothing written, cancelled with the 3.5 text, rest of the batch cancelled', async () => {
    confirmer.answers = [{ decision: 'cancel' }];
    const file = join(dir, 'declined.txt');
    const [a, b] = await rt.scheduler.schedule(
      [
        req('filesystem__write_file', { file_path: file, content: 'x' }),
        req('filesystem__write_file', { file_path: join(dir, 'second.txt'), content: 'y' }),
      ],
      signal(),
    );
    expect([a.status, b.status]).toEqual(['cancelled', 'cancelled']);
    expect(a.response!.error).toBe('[Operation Cancelled] Reason: User denied execution.');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(dir, 'second.txt'))).toBe(false);
  });

  it('modified: the edited content travels back in the elicitation answer', async () => {
    confirmer.answers = [{ decision: 'modify', content: 'edited by user\n' }, { decision: 'proceed_once' }];
    const file = join(dir, 'm.txt');
    const [call] = await rt.scheduler.schedule(
      [req('filesystem__write_file', { file_path: file, content: 'model text\n' })],
      signal(),
    );
    expect(call.status).toBe('success');
    expect(readFileSync(file, 'utf8')).toBe('edited by user\n');
  });

  it('always on an edit switches to autoEdit: later edits are pre-approved and not shown', async () => {
    confirmer.seen = [];
    confirmer.answers = [{ decision: 'proceed_always' }];
    const [a, b] = await rt.scheduler.schedule(
      [
        req('filesystem__write_file', { file_path: join(dir, 'al1.txt'), content: '1' }),
        req('filesystem__write_file', { file_path: join(dir, 'al2.txt'), content: '2' }),
      ],
      signal(),
    );
    expect([a.status, b.status]).toEqual(['success', 'success']);
    expect(confirmer.seen).toHaveLength(1);
    expect(rt.getApprovalMode()).toBe('autoEdit');
    expect(readFileSync(join(dir, 'al2.txt'), 'utf8')).toBe('2');
    rt.setApprovalMode('default');
  });

  it('yolo writes without asking', async () => {
    confirmer.seen = [];
    rt.setApprovalMode('yolo');
    try {
      const [call] = await rt.scheduler.schedule(
        [req('filesystem__write_file', { file_path: join(dir, 'y.txt'), content: 'y' })],
        signal(),
      );
      expect(call.status).toBe('success');
      expect(confirmer.seen).toHaveLength(0);
    } finally {
      rt.setApprovalMode('default');
    }
  });

  it('shell: asks with the command; always adds its root command so the next one runs unasked', async () => {
    confirmer.seen = [];
    confirmer.answers = [{ decision: 'proceed_always' }];
    const [first] = await rt.scheduler.schedule([req('shell__run_shell_command', { command: 'echo one' })], signal());
    expect(first.status).toBe('success');
    expect(confirmer.seen[0]).toMatchObject({ source: 'elicitation', detail: { kind: 'exec', command: 'echo one' } });
    const [second] = await rt.scheduler.schedule([req('shell__run_shell_command', { command: 'echo two' })], signal());
    expect(second.status).toBe('success');
    expect(confirmer.seen).toHaveLength(1);
    const out = (second.response!.responseParts[0].functionResponse!.response as { output: string }).output;
    expect(out).toContain('two');
  });

  it('passive calls run through the scheduler as client-initiated and return the display', async () => {
    writeFileSync(join(dir, 'p.txt'), 'passive content\n');
    const deps = { scheduler: rt.scheduler, registry: rt.registry };
    const json = await runPassiveCall(
      deps,
      `@filesystem__read_file({"absolute_path": "${join(dir, 'p.txt')}"})`,
      signal(),
    );
    expect(json.ok).toBe(true);
    expect(json.call?.request.isClientInitiated).toBe(true);
    const bare = await runPassiveCall(deps, `show @read_file(${join(dir, 'p.txt')}) please`, signal());
    expect(bare.ok).toBe(true);
    expect(bare.display).toContain('passive content');
    const unknown = await runPassiveCall(deps, '@nope({})', signal());
    expect(unknown).toEqual({ ok: false, display: 'Tool "nope" not found.' });
    const invalid = await runPassiveCall(deps, '@read_file({"absolute_path": 3})', signal());
    expect(invalid.ok).toBe(false);
    expect(invalid.display).toBe('params/absolute_path must be string');
  });
});

describe('elicitation answered by policy without asking', () => {
  it('autoEdit answers an edit confirmation with proceed; default asks and declines headless', async () => {
    const tool = {
      exposedName: 'filesystem__write_file',
      serverAlias: 'filesystem',
      toolName: 'write_file',
      description: '',
      readOnly: false,
      confirmsInCall: true,
      trusted: false,
      builtIn: true,
    };
    const params = {
      mode: 'form' as const,
      message: 'Confirm Write: a.txt',
      requestedSchema: { type: 'object' as const, properties: {} },
      _meta: { [META.confirmation]: { kind: 'edit', title: 'Confirm Write: a.txt', callId: 'x1' } },
    };
    const asked: ConfirmationRequest[] = [];
    const recorder: Confirmer = { confirm: async (r) => (asked.push(r), { decision: 'cancel' }) };
    for (const [mode, expected, shown] of [
      ['autoEdit', 'accept', 0],
      ['yolo', 'accept', 0],
      ['default', 'decline', 1],
    ] as const) {
      asked.length = 0;
      const broker = new ApprovalBroker(new PolicyEngine({ interactive: true, approvalMode: mode }), recorder);
      const untrack = broker.track({
        callId: 'x1',
        tool,
        signal: new AbortController().signal,
        onAwaiting() {},
        onResumed() {},
      });
      const answer = await broker.handleElicitation('filesystem', params, new AbortController().signal);
      untrack();
      expect(answer.action).toBe(expected);
      if (expected === 'accept') expect(answer.content).toEqual({ decision: 'proceed_once' });
      expect(asked).toHaveLength(shown);
    }
  });

  it('matches by the only call in flight to that server when no callId is echoed; declines strays', async () => {
    const tool = {
      exposedName: 'fs__w',
      serverAlias: 'fs',
      toolName: 'w',
      description: '',
      readOnly: false,
      confirmsInCall: true,
      trusted: false,
      builtIn: false,
    };
    const broker = new ApprovalBroker(new PolicyEngine({ interactive: true, approvalMode: 'yolo' }));
    const params = {
      mode: 'form' as const,
      message: 'm',
      requestedSchema: { type: 'object' as const, properties: {} },
      _meta: { [META.confirmation]: { kind: 'info', title: 't' } },
    };
    expect((await broker.handleElicitation('fs', params, new AbortController().signal)).action).toBe('decline');
    broker.track({ callId: 'only', tool, signal: new AbortController().signal, onAwaiting() {}, onResumed() {} });
    expect((await broker.handleElicitation('fs', params, new AbortController().signal)).action).toBe('accept');
    expect((await broker.handleElicitation('other', params, new AbortController().signal)).action).toBe('decline');
  });
});

describe('passive call syntax', () => {
  it('finds calls with nested JSON and ignores e-mail addresses', () => {
    const found = findPassiveCalls('mail a@b.c then @srv__t({"a": "x)", "b": {"c": [1]}}) and @other()');
    expect(found.map((f) => [f.name, f.argText])).toEqual([
      ['srv__t', '{"a": "x)", "b": {"c": [1]}}'],
      ['other', ''],
    ]);
  });
});

describe('runtime: headless', () => {
  const { dir, env } = workspace(['filesystem']);
  it('declines edits unless allowed; read-only tools run', async () => {
    const rt = await createHostRuntime({ cwd: dir, env, interactive: false });
    try {
      await rt.manager.whenSettled();
      const [w] = await rt.scheduler.schedule(
        [req('filesystem__write_file', { file_path: join(dir, 'h.txt'), content: 'h' })],
        new AbortController().signal,
      );
      expect(w.status).toBe('error');
      expect(w.response!.error).toMatch(/requires user confirmation/);
      const [l] = await rt.scheduler.schedule(
        [req('filesystem__list_directory', { path: dir })],
        new AbortController().signal,
      );
      expect(l.status).toBe('success');
      expect(rt.projectTempDir.startsWith(env.GEMINI_CLI_HOME!)).toBe(true);
    } finally {
      await rt.close();
    }
  });
});
