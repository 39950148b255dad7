import { EventEmitter } from 'node:events';
import { ApprovalBroker } from './approvals.js';
import {
  answeredName,
  applyProgress,
  type CallRecord,
  decide,
  errorResponse,
  newRecord,
  snapshot,
} from './call-record.js';
import { convertCallToolResult } from './convert-result.js';
import type { CallExecutor, ToolLookup } from './executor.js';
import {
  ABORTED,
  CANCELLED_BY_USER,
  CANCELLED_WAITING,
  MAX_TAIL_CALLS,
  notFoundText,
  REJECTED,
  rejectedText,
  tooManyTailsText,
} from './texts.js';
import type {
  ConfirmationRequest,
  Confirmer,
  Policy,
  PolicyInput,
  ResultDisplay,
  SchedulerEvent,
  ToolCall,
  ToolCallOutcome,
  ToolCallRequestInfo,
  ToolCallStatus,
  ToolHooks,
  ToolRef,
} from './types.js';
import { ArgumentValidator } from './validate.js';
import { modelResponse } from './model-response.js';
import { callMeta, type ProgressNote, terminalEvent, type UserTerminal } from './call-wire.js';

export type { UserTerminal };
import { beforeToolStep, hookNotes, STOP_EXECUTION, stoppedByHook } from './hook-steps.js';

export interface ToolSchedulerOptions {
  tools: ToolLookup;
  executor: CallExecutor;
  policy: Policy;
  /** Who answers asks; defaults to the headless confirmer (declines). */
  confirmer?: Confirmer;
  /** Where truncated outputs are saved (`<dir>/tool-outputs/`). */
  projectTempDir: string;
  /** `tools.truncateToolOutputThreshold` (default 40,000; ≤ 0 disables). */
  truncateThreshold?: number;
  log?: (msg: string) => void;
  /** Resolves when every server has connected or failed; a name not found yet is looked up again after it. */
  whenReady?: () => Promise<void>;
  /**
   * Another client's spellings of a tool's arguments turned into the tool's own (Gemini CLI 0.61's
   * `file_path` for `absolute_path`, relative paths), before validation.
   */
  normalizeArgs?: (tool: ToolRef, args: Record<string, unknown>) => Record<string, unknown>;
  /** BeforeTool / AfterTool / Notification hooks. */
  hooks?: ToolHooks;
  /**
   * Text appended to a successful call's output (just-in-time subdirectory context); never fails the call.
   * It starts a lookup; the function it resolves to is called only when the call succeeded, and gives the text.
   */
  extraContext?: (tool: ToolRef, args: Record<string, unknown>) => Promise<() => string>;
  /** Tools the host calls for the user (keystrokes into a running command): a model's call of one is refused. */
  hostOnly?: (tool: ToolRef) => boolean;
}

/** Per-batch state shared by its calls. */
interface Batch {
  signal: AbortSignal;
  /** A confirmation was cancelled: calls not yet started are cancelled too. */
  cancelled: boolean;
}

/**
 * Runs the calls of one model turn: validate, decide, ask, execute on the
 * server, convert. Emits every state change as a `SchedulerEvent` on 'event'.
 */
export class ToolScheduler extends EventEmitter {
  readonly approvals: ApprovalBroker;
  private readonly validator = new ArgumentValidator();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: ToolSchedulerOptions) {
    super();
    this.approvals = new ApprovalBroker(opts.policy, opts.confirmer, opts.log);
    opts.executor.setElicitationHandler?.(this.approvals.handleElicitation);
  }

  setConfirmer(confirmer: Confirmer): void {
    this.approvals.setConfirmer(confirmer);
  }

  /** Resolves with every call in request order once all are terminal; a second batch waits its turn. */
  schedule(requests: ToolCallRequestInfo[], signal: AbortSignal): Promise<ToolCall[]> {
    const run = this.queue.then(() => this.runBatch(requests, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A batch made by a call of a running batch (a subagent's calls while its invoke_agent call runs): it
   * cannot wait for that batch to end, which waits for it, so it runs at once, through the same steps.
   */
  scheduleNested(requests: ToolCallRequestInfo[], signal: AbortSignal): Promise<ToolCall[]> {
    return this.runBatch(requests, signal);
  }

  private async runBatch(requests: ToolCallRequestInfo[], signal: AbortSignal): Promise<ToolCall[]> {
    const batch: Batch = { signal, cancelled: false };
    const calls = requests.map(newRecord);
    const tools = new Map<CallRecord, ToolRef>();
    if (this.opts.whenReady && requests.some((r) => !this.opts.tools.get(r.name))) await this.opts.whenReady();
    // A lazily started server's spawn then overlaps validation and policy instead of following them.
    for (const r of requests) {
      const tool = this.opts.tools.get(r.name);
      if (tool) this.opts.executor.prepare?.(tool.serverAlias);
    }
    await this.validator.ready();
    for (const call of calls) {
      this.emitCall(call);
      const tool = this.prepare(call);
      if (tool) tools.set(call, tool);
    }
    // Consecutive read-only calls form one parallel group; anything else runs alone, in order.
    const groups: CallRecord[][] = [];
    for (const call of calls) {
      const tool = tools.get(call);
      if (!tool) continue;
      const last = groups[groups.length - 1];
      if (tool.readOnly && last && tools.get(last[0])!.readOnly) last.push(call);
      else groups.push([call]);
    }
    for (const group of groups) {
      await Promise.all(group.map((call) => this.runOne(call, tools.get(call)!, batch)));
    }
    const done = calls.map(snapshot);
    this.emitEvent({ type: 'all_complete', calls: done });
    return done;
  }

  /** Lookup and validation; ends the call in error or leaves it scheduled. */
  private prepare(call: CallRecord): ToolRef | undefined {
    const { name } = call.request;
    const found = this.opts.tools.get(name);
    // A tool only the host calls for the user (typing into a command) is not the model's to call.
    const tool = found && !this.opts.hostOnly?.(found) ? found : undefined;
    if (!tool) {
      this.finishError(
        call,
        notFoundText(
          name,
          this.opts.tools
            .list()
            .filter((t) => !this.opts.hostOnly?.(t))
            .map((t) => t.exposedName),
        ),
        'tool_not_registered',
      );
      return undefined;
    }
    call.tool = tool;
    const sent = { ...call.request.args };
    const props = (tool.inputSchema?.properties ?? {}) as Record<string, unknown>;
    if ('wait_for_previous' in sent && !('wait_for_previous' in props)) delete sent.wait_for_previous;
    const args = { ...(this.opts.normalizeArgs?.(tool, sent) ?? sent) };
    call.argsAsSent = sent;
    call.request = { ...call.request, args };
    const invalid = this.validator.validate(tool.inputSchema, args);
    if (invalid) {
      this.finishError(call, invalid, 'invalid_tool_params');
      return undefined;
    }
    this.setStatus(call, 'scheduled');
    return tool;
  }

  private async runOne(call: CallRecord, tool: ToolRef, batch: Batch): Promise<void> {
    // Ended by the user before its turn came: an abort, or a cancel of an earlier call of the batch.
    if (batch.signal.aborted) return this.finishCancelled(call, ABORTED, 'reject');
    if (batch.cancelled) return this.finishCancelled(call, CANCELLED_WAITING, 'reject');
    const hooked = await this.beforeToolHooks(call, tool, batch);
    if (!hooked) return;
    const { args, callId } = call.request;
    const hook = hooked.hook;
    const decision = await this.opts.policy.decide(tool, { args, ...(hook ? { hook } : {}) });
    if (decision.decision === 'deny') {
      decide(call, 'reject');
      return this.finishError(call, decision.message, 'policy_denied');
    }
    let preapproved = decision.decision === 'allow' || (decision.decision === 'ask' && !!call.request.typedByUser);
    if (preapproved) decide(call, 'auto_accept');
    // Only our own servers are relied on to confirm in-call: an untrusted server that
    // declares it could simply not ask, so its calls get the host's own dialog before they are sent. A hook's
    // ask gets it too: the server asks only by its own rules, which may let the call through unasked.
    const hostAsks = !(tool.confirmsInCall && tool.builtIn) || hook?.decision === 'ask';
    if (decision.decision === 'ask' && !preapproved && hostAsks) {
      let shown = false;
      const outcome = await this.approvals.askBeforeCall(
        tool,
        args,
        callId,
        batch.signal,
        (r) => {
          shown = true;
          return this.awaiting(call, r);
        },
        batch,
        hook,
      );
      // `modify` has no meaning before a call (nothing was proposed yet): it is not consent.
      const refused = outcome.decision === 'cancel' || outcome.decision === 'modify';
      // Not shown: policy, re-checked at the front of the queue, decided it (or the batch was already cancelled).
      decide(call, refused ? 'reject' : shown ? 'accept' : 'auto_accept');
      if (refused) {
        if (batch.signal.aborted) return this.finishCancelled(call, ABORTED);
        // Not shown while the batch is cancelled: an earlier call's cancel ended this one unasked.
        if (!shown && batch.cancelled) return this.finishCancelled(call, CANCELLED_WAITING);
        return this.finishRejected(call, tool, batch);
      }
      preapproved = true;
      call.confirmation = undefined;
      this.setStatus(call, 'scheduled');
    }
    if (batch.signal.aborted) return this.finishCancelled(call, ABORTED, 'reject');
    await this.execute(call, tool, batch, preapproved, hook);
  }

  /** Runs the call's BeforeTool hooks before policy (see beforeToolStep); undefined when the call ended. */
  private async beforeToolHooks(
    call: CallRecord,
    tool: ToolRef,
    batch: Batch,
  ): Promise<{ hook?: PolicyInput['hook'] } | undefined> {
    const hooks = this.opts.hooks;
    if (!hooks) return {};
    const r = await hooks.beforeTool(tool, call.request.args, batch.signal, call.argsAsSent, call.originalTool);
    const step = beforeToolStep(r, tool, this.opts.normalizeArgs, (s, a) => this.validator.validate(s, a));
    if ('end' in step) {
      decide(call, 'reject');
      this.finishError(call, step.end.text, step.end.errorType);
      return undefined;
    }
    if (step.args) {
      call.request = { ...call.request, args: step.args };
      call.modifiedByHook = step.modified;
      // AfterTool hooks see the input the call ran with, as the hooks wrote it (Gemini CLI's tool_input).
      call.argsAsSent = r.updatedInput;
    }
    return step.hook ? { hook: step.hook } : {};
  }

  private async execute(
    call: CallRecord,
    tool: ToolRef,
    batch: Batch,
    preapproved: boolean,
    hook: PolicyInput['hook'],
  ): Promise<void> {
    const { args, callId } = call.request;
    const tracked = this.tracked(call, tool, batch, hook);
    const untrack = this.approvals.track(tracked);
    this.setStatus(call, 'executing');
    // A read-only call changes no file, so the context of its paths is looked up while it runs, not after:
    // from the next turn of the event loop, once the request is written (the lookup's checks of its kept
    // answer are synchronous `stat`s, which would otherwise delay every read-only call's request).
    const early = tool.readOnly ? afterThisTurn(() => this.contextFor(tool, args)) : undefined;
    let result: Awaited<ReturnType<CallExecutor['callTool']>>;
    try {
      result = await this.opts.executor.callTool(tool.serverAlias, tool.toolName, args, {
        signal: batch.signal,
        callId,
        meta: callMeta(call.request, preapproved, this.userTerminal),
        onProgress: (p) => this.progress(call, p),
      });
    } catch (err) {
      if (batch.signal.aborted) return this.finishCancelled(call, ABORTED, 'reject');
      return this.finishError(call, (err as Error).message ?? String(err), 'execution_failed');
    } finally {
      untrack();
    }
    if (tracked.declined) {
      if (tracked.skipped) {
        batch.cancelled = true;
        return this.finishCancelled(call, CANCELLED_WAITING);
      }
      return this.finishRejected(call, tool, batch);
    }
    const converted = convertCallToolResult(result, {
      toolName: tool.toolName,
      untrusted: !tool.builtIn && !tool.trusted,
    });
    const after = await this.opts.hooks?.afterTool(
      tool,
      args,
      {
        llmContent: converted.text,
        returnDisplay: converted.display,
        ...(converted.isError ? { error: converted.text, errorType: converted.errorType ?? 'execution_failed' } : {}),
      },
      batch.signal,
      call.argsAsSent,
      call.originalTool,
    );
    if (after?.stopped !== undefined) return this.finishError(call, stoppedByHook(after.stopped), STOP_EXECUTION);
    if (after?.blocked !== undefined)
      return this.finishError(call, `Tool result blocked: ${after.blocked}`, 'execution_failed');
    if (after?.tail) return this.runTail(call, after.tail, batch);
    converted.text += hookNotes(call.modifiedByHook, after?.context);
    if (converted.isError) {
      return this.finishError(
        call,
        converted.text || 'Tool reported an error.',
        converted.errorType ?? 'execution_failed',
        converted.display,
      );
    }
    const extra = (await (early ?? this.contextFor(tool, args)))();
    call.response = await modelResponse(call, tool, result, converted, {
      truncateThreshold: this.opts.truncateThreshold,
      projectTempDir: this.opts.projectTempDir,
      extra,
    });
    this.finish(call, 'success');
  }

  /** A running call as the approvals see it: an in-call question pauses it, a decision records the outcome. */
  private tracked(call: CallRecord, tool: ToolRef, batch: Batch, hook: PolicyInput['hook']) {
    return {
      callId: call.request.callId,
      tool,
      args: call.request.args,
      hook,
      signal: batch.signal,
      declined: false,
      batch,
      skipped: false,
      onAwaiting: (r: ConfirmationRequest) => this.awaiting(call, r),
      onResumed: () => {
        call.confirmation = undefined;
        this.setStatus(call, 'executing');
      },
      onDecided: (o: ToolCallOutcome) => decide(call, o),
    };
  }

  /** Starts the extra-context lookup of a call (see the option); a failed lookup adds nothing. */
  private contextFor(tool: ToolRef, args: Record<string, unknown>): Promise<() => string> {
    return this.opts.extraContext?.(tool, args).catch(() => () => '') ?? Promise.resolve(() => '');
  }

  /**
   * An AfterTool hook's `tailToolCallRequest`: the tail is made in the original call's place (same call id),
   * through every step a call takes (lookup, validation, hooks, policy, the user's approval), and its response
   * answers the model's call, as in Gemini CLI. A chain of tails is bounded, so no hook can loop for ever.
   */
  private async runTail(call: CallRecord, tail: { name: string; args: Record<string, unknown> }, batch: Batch) {
    call.tails = (call.tails ?? 0) + 1;
    if (call.tails > MAX_TAIL_CALLS)
      return this.finishError(call, tooManyTailsText(MAX_TAIL_CALLS, tail.name), 'execution_failed');
    call.originalTool ??= call.tool;
    const found = this.opts.tools.get(tail.name);
    call.request = {
      ...call.request,
      name: found?.exposedName ?? tail.name,
      args: { ...tail.args },
      originalRequestName: answeredName(call.request),
    };
    call.modifiedByHook = undefined;
    call.liveOutput = undefined;
    call.progress = undefined;
    const tool = this.prepare(call);
    if (tool) await this.runOne(call, tool, batch);
  }

  private async awaiting(call: CallRecord, request: ConfirmationRequest): Promise<void> {
    await this.opts.hooks?.awaitingApproval?.(request).catch(() => undefined);
    call.confirmation = request;
    this.setStatus(call, 'awaiting_approval');
  }

  /**
   * Set by a front-end with a person at a terminal (the chat): every call then says so in its `_meta`, and the
   * shell runs a command in a pseudo-terminal the user can type into. Unset (headless, editors): nobody types.
   */
  userTerminal?: UserTerminal;

  /** A notification without a message still moves the card's percentage. */
  private progress(call: CallRecord, p: ProgressNote): void {
    const message = applyProgress(call, p);
    if (message) this.emitEvent({ type: 'tool_output', callId: call.request.callId, chunk: message });
    const terminal = terminalEvent(call, p);
    if (terminal) this.emitEvent(terminal);
    this.emitCall(call);
  }

  private finishError(call: CallRecord, text: string, errorType: string, display?: ResultDisplay): void {
    call.response = errorResponse(call, text, errorType, display);
    this.finish(call, 'error');
  }

  /**
   * The user rejected the call. In the chat that cancels the batch and ends the turn; in an editor the model
   * is told the tool was canceled and the turn goes on (a cancel of the turn is what stops it there).
   */
  private finishRejected(call: CallRecord, tool: ToolRef, batch: Batch): void {
    if (this.approvals.rejectionEndsTurn || batch.signal.aborted) {
      batch.cancelled = true;
      this.finishCancelled(call, CANCELLED_BY_USER);
      return;
    }
    this.finishError(call, rejectedText(tool.exposedName), REJECTED);
  }

  /** `undecided`: the outcome to record when the call was not decided before the user ended it. */
  private finishCancelled(call: CallRecord, text: string, undecided?: ToolCallOutcome): void {
    if (undecided && !call.outcome) call.outcome = undecided;
    call.response = errorResponse(call, text, 'cancelled');
    this.finish(call, 'cancelled');
  }

  private finish(call: CallRecord, status: ToolCallStatus): void {
    call.confirmation = undefined;
    call.endTime = Date.now();
    this.setStatus(call, status);
  }

  private setStatus(call: CallRecord, status: ToolCallStatus): void {
    const now = Date.now();
    if (call.status === 'awaiting_approval' && status !== 'awaiting_approval' && call.waitStart !== undefined) {
      call.waitedMs = (call.waitedMs ?? 0) + (now - call.waitStart);
      call.waitStart = undefined;
    } else if (status === 'awaiting_approval' && call.status !== 'awaiting_approval') call.waitStart = now;
    call.status = status;
    this.emitCall(call);
  }

  private emitCall(call: CallRecord): void {
    this.emitEvent({ type: 'tool_call_update', call: snapshot(call) });
  }

  private emitEvent(event: SchedulerEvent): void {
    this.emit('event', event);
  }
}

/** Runs `fn` on the event loop's next turn, once what this turn started (a request's write) is done. */
function afterThisTurn<T>(fn: () => Promise<T>): Promise<T> {
  return new Promise<void>((resolve) => setImmediate(resolve)).then(fn);
}
