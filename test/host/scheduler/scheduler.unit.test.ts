import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { CallExecutor, ExecuteOptions, ToolLookup } from '../../../host/scheduler/executor.js';
import { ToolScheduler } from '../../../host/scheduler/scheduler.js';
import type {
  ConfirmationRequest,
  Confirmer,
  Policy,
  PolicyTool,
  SchedulerEvent,
  ToolCallRequestInfo,
  ToolRef,
  UserAnswer,
  Verdict,
} from '../../../host/scheduler/types.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * The scheduler alone, in-process, with small fakes of the interfaces it is built on (ToolLookup,
 * CallExecutor, Policy, Confirmer): no module mocks, no servers. The process suites next to this file
 * cover the same paths end to end.
 */

const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

function tool(name: string, readOnly: boolean): ToolRef {
  return {
    exposedName: `fake__${name}`,
    serverAlias: 'fake',
    toolName: name,
    description: name,
    inputSchema: schema,
    readOnly,
    confirmsInCall: false,
    trusted: false,
    builtIn: false,
  };
}

const TOOLS = [tool('read', true), tool('peek', true), tool('write', false)];

const lookup: ToolLookup = {
  get: (name) => TOOLS.find((t) => t.exposedName === name),
  list: () => TOOLS,
};

/** Executes by echoing; `hold` keeps a call open until released, so overlap and aborts can be seen. */
class FakeExecutor implements CallExecutor {
  readonly log: string[] = [];
  private held = new Map<string, () => void>();
  private waiting = new Map<string, () => void>();
  hold = new Set<string>();

  async callTool(_alias: string, name: string, args: Record<string, unknown>, opts?: ExecuteOptions) {
    const path = String(args.path);
    this.log.push(`start ${name} ${path}`);
    if (this.hold.has(path)) {
      await new Promise<void>((resolve, reject) => {
        this.held.set(path, resolve);
        this.waiting.get(path)?.();
        opts?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    }
    this.log.push(`end ${name} ${path}`);
    return { content: [{ type: 'text', text: `${name} done: ${path}` }] } as CallToolResult;
  }

  /** Resolves once the call on `path` has started and is held. */
  started(path: string): Promise<void> {
    if (this.held.has(path)) return Promise.resolve();
    return new Promise((r) => this.waiting.set(path, r));
  }

  release(path: string): void {
    this.held.get(path)?.();
  }
}

class FakePolicy implements Policy {
  readonly interactive = true;
  readonly remembered: string[] = [];
  constructor(private readonly verdicts: Record<string, Verdict['decision']>) {}

  async decide(t: PolicyTool): Promise<Verdict> {
    const decision = this.verdicts[t.toolName] ?? 'allow';
    if (decision === 'deny') return { decision, reason: 'test rule', message: `${t.toolName} is denied by a rule` };
    return { decision, reason: 'test rule' };
  }

  async remember(t: PolicyTool, answer: UserAnswer): Promise<void> {
    this.remembered.push(`${t.toolName}:${answer.decision}`);
  }
}

class FakeConfirmer implements Confirmer {
  readonly asked: ConfirmationRequest[] = [];
  constructor(private readonly answers: UserAnswer['decision'][]) {}

  async confirm(request: ConfirmationRequest): Promise<UserAnswer> {
    this.asked.push(request);
    return { decision: this.answers.shift() ?? 'cancel' } as UserAnswer;
  }
}

function setup(verdicts: Record<string, Verdict['decision']> = {}, answers: UserAnswer['decision'][] = []) {
  const executor = new FakeExecutor();
  const policy = new FakePolicy(verdicts);
  const confirmer = new FakeConfirmer(answers);
  const scheduler = new ToolScheduler({
    tools: lookup,
    executor,
    policy,
    confirmer,
    projectTempDir: tempDir('gmc-sched-'),
  });
  const events: SchedulerEvent[] = [];
  scheduler.on('event', (e: SchedulerEvent) => events.push(e));
  return { executor, policy, confirmer, scheduler, events };
}

let n = 0;
const call = (name: string, args: Record<string, unknown>): ToolCallRequestInfo => ({
  callId: `c${++n}`,
  name: `fake__${name}`,
  args,
  isClientInitiated: false,
  promptId: 'p',
});

describe('ToolScheduler with fakes of its interfaces', () => {
  it('runs an allowed call through validating → scheduled → executing → success, then all_complete', async () => {
    const { scheduler, events, executor } = setup();
    const [done] = await scheduler.schedule([call('read', { path: 'a' })], new AbortController().signal);
    expect(done!.status).toBe('success');
    expect(done!.outcome).toBe('auto_accept');
    expect(done!.response!.responseText).toContain('read done: a');
    expect(executor.log).toEqual(['start read a', 'end read a']);
    const states = events.flatMap((e) => (e.type === 'tool_call_update' ? [e.call.status] : []));
    expect(states).toEqual(['validating', 'scheduled', 'executing', 'success']);
    expect(events.at(-1)!.type).toBe('all_complete');
  });

  it('an unknown tool and invalid arguments end in error before policy or the server see them', async () => {
    const { scheduler, executor } = setup();
    const [unknown, invalid] = await scheduler.schedule(
      [call('nope', { path: 'a' }), call('read', { path: 42 })],
      new AbortController().signal,
    );
    expect(unknown!.status).toBe('error');
    expect(unknown!.response!.errorType).toBe('tool_not_registered');
    expect(invalid!.status).toBe('error');
    expect(invalid!.response!.errorType).toBe('invalid_tool_params');
    expect(executor.log).toEqual([]);
  });

  it("a deny ends the call with policy's message for the model; nothing runs", async () => {
    const { scheduler, executor } = setup({ write: 'deny' });
    const [denied] = await scheduler.schedule([call('write', { path: 'x' })], new AbortController().signal);
    expect(denied!.status).toBe('error');
    expect(denied!.outcome).toBe('reject');
    expect(denied!.response!.responseText).toContain('write is denied by a rule');
    expect(executor.log).toEqual([]);
  });

  it('an ask goes to the confirmer; each answer runs the call and is handed to policy, which keeps what reaches beyond it', async () => {
    const { scheduler, executor, confirmer, policy } = setup({ write: 'ask' }, ['proceed_once', 'proceed_always']);
    const done = await scheduler.schedule(
      [call('write', { path: 'x' }), call('write', { path: 'y' })],
      new AbortController().signal,
    );
    expect(done.map((c) => c.status)).toEqual(['success', 'success']);
    expect(done.map((c) => c.outcome)).toEqual(['accept', 'accept']);
    expect(confirmer.asked.map((r) => r.source)).toEqual(['pre-call', 'pre-call']);
    expect(policy.remembered).toEqual(['write:proceed_once', 'write:proceed_always']);
    expect(executor.log).toEqual(['start write x', 'end write x', 'start write y', 'end write y']);
  });

  it("a cancelled ask cancels the batch's later calls without asking again", async () => {
    const { scheduler, executor, confirmer } = setup({ write: 'ask' }, ['cancel']);
    const done = await scheduler.schedule(
      [call('write', { path: 'x' }), call('write', { path: 'y' })],
      new AbortController().signal,
    );
    expect(done.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(confirmer.asked).toHaveLength(1);
    expect(executor.log).toEqual([]);
  });

  it('consecutive read-only calls run together; a write waits for them and runs alone', async () => {
    const { scheduler, executor } = setup();
    executor.hold = new Set(['a', 'b']);
    const batch = scheduler.schedule(
      [call('read', { path: 'a' }), call('peek', { path: 'b' }), call('write', { path: 'c' })],
      new AbortController().signal,
    );
    await executor.started('a');
    await executor.started('b');
    // Both reads are open at once, and the write has not started.
    expect(executor.log).toEqual(['start read a', 'start peek b']);
    executor.release('a');
    executor.release('b');
    const done = await batch;
    expect(done.map((c) => c.status)).toEqual(['success', 'success', 'success']);
    expect(executor.log.slice(-2)).toEqual(['start write c', 'end write c']);
  });

  it('an abort mid-call cancels the running call and those not started', async () => {
    const { scheduler, executor } = setup();
    executor.hold = new Set(['x']);
    const abort = new AbortController();
    const batch = scheduler.schedule([call('write', { path: 'x' }), call('write', { path: 'y' })], abort.signal);
    await executor.started('x');
    abort.abort();
    const done = await batch;
    expect(done.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(executor.log).toEqual(['start write x']);
  });

  it('a second batch waits for the first', async () => {
    const { scheduler, executor } = setup();
    executor.hold = new Set(['first']);
    const one = scheduler.schedule([call('write', { path: 'first' })], new AbortController().signal);
    const two = scheduler.schedule([call('write', { path: 'second' })], new AbortController().signal);
    await executor.started('first');
    expect(executor.log).toEqual(['start write first']);
    executor.release('first');
    await Promise.all([one, two]);
    expect(executor.log).toEqual(['start write first', 'end write first', 'start write second', 'end write second']);
  });
});
