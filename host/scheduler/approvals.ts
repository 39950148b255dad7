import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ConfirmationDetailSchema, type ConfirmationDetail } from '../../protocol/confirmation.js';
import { META } from '../../protocol/meta.js';
import type {
  UserAnswer,
  ConfirmationRequest,
  Confirmer,
  Policy,
  PolicyInput,
  ToolCallOutcome,
  ToolRef,
} from './types.js';

/** Answers every question with cancel: what a run without a user gets. */
export const headlessConfirmer: Confirmer = {
  confirm: async () => ({ decision: 'cancel' }),
};

/** A call in flight that a server may raise a confirmation for. */
export interface TrackedCall {
  callId: string;
  tool: ToolRef;
  /** The call's arguments, which policy reads beside the server's detail. */
  args: Record<string, unknown>;
  /** What the call's BeforeTool hooks said: every re-decision includes it, so a hook's ask is not lost. */
  hook?: PolicyInput['hook'];
  signal: AbortSignal;
  /** The call waits for the user (status awaiting_approval with this request). */
  onAwaiting(request: ConfirmationRequest): Promise<void> | void;
  /** The user answered; the call runs on. */
  onResumed(): void;
  /** Set when the user declined an in-call confirmation: the call is recorded as cancelled. */
  declined?: boolean;
  /** The call's batch: a cancel marks it at once, and later questions of it are not asked. */
  batch?: BatchGate;
  /** Set when the question was declined unasked because the batch was already cancelled. */
  skipped?: boolean;
  /** Told how each in-call confirmation was decided. */
  onDecided?(outcome: ToolCallOutcome): void;
}

/** Shared by the calls of one batch; parallel calls queue questions, and a cancel ends the others'. */
export interface BatchGate {
  cancelled: boolean;
}

/**
 * Approvals across the MCP boundary: host-side asks before a call, and the answer to
 * each confirmation elicitation a server raises mid-call. One dialog at a time; policy is re-checked
 * when a question reaches the front of the queue, since an earlier "always" may now cover it.
 */
export class ApprovalBroker {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly inFlight = new Map<string, TrackedCall>();

  constructor(
    private readonly policy: Policy,
    private confirmer: Confirmer = headlessConfirmer,
    private readonly log: (msg: string) => void = () => {},
  ) {}

  setConfirmer(confirmer: Confirmer): void {
    this.confirmer = confirmer;
  }

  /** Whether a user's rejection ends the batch (and the turn), or only answers the model for that call. */
  get rejectionEndsTurn(): boolean {
    return !this.confirmer.rejectionContinuesTurn;
  }

  track(call: TrackedCall): () => void {
    this.inFlight.set(call.callId, call);
    return () => this.inFlight.delete(call.callId);
  }

  /** Pre-call ask for a tool whose server does not confirm in-call, or is not ours to rely on for it. */
  askBeforeCall(
    tool: ToolRef,
    args: Record<string, unknown>,
    callId: string,
    signal: AbortSignal,
    onAwaiting: (r: ConfirmationRequest) => Promise<void> | void,
    batch: BatchGate = { cancelled: false },
    hook?: PolicyInput['hook'],
  ): Promise<UserAnswer> {
    return this.serialize(signal, async () => {
      if (batch.cancelled) return { decision: 'cancel' };
      const again = await this.policy.decide(tool, { args, ...(hook ? { hook } : {}) });
      if (again.decision === 'allow') return { decision: 'proceed_once' };
      if (again.decision === 'deny') return { decision: 'cancel' };
      const request: ConfirmationRequest = {
        source: 'pre-call',
        callId,
        tool,
        args,
        title: `Allow ${tool.toolName} from server ${tool.serverAlias}?`,
        ...(hook?.message ? { hookMessage: hook.message } : {}),
      };
      await onAwaiting(request);
      const outcome = await untilAborted(this.confirmer.confirm(request, signal), signal);
      // Marked before the next queued question runs.
      const refused = outcome.decision === 'cancel' || outcome.decision === 'modify';
      if (refused && (signal.aborted || this.rejectionEndsTurn)) batch.cancelled = true;
      await this.policy.remember(tool, outcome);
      return outcome;
    });
  }

  /**
   * A host tool's own question during its call (exit_plan_mode's plan approval): policy decides again on
   * the detail, then the user answers. The tool reads the answer itself: a cancel or a rejection is its
   * result for the model, not a cancelled call, so the batch goes on.
   */
  askInCall(callId: string, detail: ConfirmationDetail, message: string, signal: AbortSignal): Promise<UserAnswer> {
    const call = this.inFlight.get(callId);
    if (!call) return Promise.resolve({ decision: 'cancel' });
    const both = AbortSignal.any([signal, call.signal]);
    return this.serialize(both, async () => {
      const verdict = await this.policy.decide(call.tool, {
        args: call.args,
        detail,
        ...(call.hook ? { hook: call.hook } : {}),
      });
      if (verdict.decision !== 'ask') {
        call.onDecided?.(verdict.decision === 'allow' ? 'auto_accept' : 'reject');
        return { decision: verdict.decision === 'allow' ? 'proceed_once' : 'cancel' };
      }
      const request: ConfirmationRequest = {
        source: 'elicitation',
        callId,
        tool: call.tool,
        args: call.args,
        detail,
        message,
      };
      call.onAwaiting(request);
      const answer = await untilAborted(this.confirmer.confirm(request, both), both);
      call.onDecided?.(userDecision(answer));
      call.onResumed();
      return answer;
    });
  }

  /** The manager's elicitation handler (install with `manager.setElicitationHandler`). */
  readonly handleElicitation = async (
    alias: string,
    params: ElicitRequest['params'],
    signal: AbortSignal,
  ): Promise<ElicitResult> => {
    const rawDetail = (params._meta as Record<string, unknown> | undefined)?.[META.confirmation];
    const parsed = ConfirmationDetailSchema.safeParse(rawDetail);
    const call = this.match(alias, parsed.success ? parsed.data.callId : undefined);
    if (!call) {
      this.log(`elicitation from ${alias} matches no call in flight; declined`);
      return { action: 'decline' };
    }
    if (!parsed.success) {
      // Only typed confirmations are understood; a free-form form from a server is not consent.
      this.log(`elicitation from ${alias} carries no confirmation detail; declined`);
      call.onDecided?.('reject');
      return { action: 'decline' };
    }
    const detail = parsed.data;
    const both = AbortSignal.any([signal, call.signal]);
    let showed = false;
    const outcome = await this.serialize(both, async () => {
      // Parallel calls queue their questions; once one is cancelled the others are not asked.
      if (call.batch?.cancelled) {
        call.skipped = true;
        return { decision: 'cancel' } as const;
      }
      // The same decision as before the call, now on what the server says it will do.
      const verdict = await this.policy.decide(call.tool, {
        args: call.args,
        detail,
        ...(call.hook ? { hook: call.hook } : {}),
      });
      if (verdict.decision === 'allow') return { decision: 'proceed_once' } as const;
      if (verdict.decision === 'deny') return { decision: 'cancel' } as const;
      const request: ConfirmationRequest = {
        source: 'elicitation',
        callId: call.callId,
        tool: call.tool,
        args: call.args,
        detail,
        message: params.message,
      };
      await call.onAwaiting(request);
      showed = true;
      const o = await untilAborted(this.confirmer.confirm(request, both), both);
      // Marked before the next queued question runs.
      const refused = o.decision === 'cancel' || (o.decision === 'modify' && detail.kind !== 'edit');
      if (call.batch && refused && (both.aborted || this.rejectionEndsTurn)) call.batch.cancelled = true;
      await this.policy.remember(call.tool, o, detail);
      return o;
    });
    const answer = this.answer(call, outcome, detail);
    call.onDecided?.(showed ? userDecision(outcome, answer) : answer.action === 'accept' ? 'auto_accept' : 'reject');
    // A declined call stays awaiting until the server's reply ends it as cancelled.
    if (showed && !call.declined) call.onResumed();
    return answer;
  };

  private answer(call: TrackedCall, outcome: UserAnswer, detail: ConfirmationDetail): ElicitResult {
    switch (outcome.decision) {
      case 'cancel':
        call.declined = true;
        return { action: 'decline' };
      case 'modify':
        if (detail.kind !== 'edit') {
          call.declined = true;
          return { action: 'decline' };
        }
        return { action: 'accept', content: { decision: 'modify', content: outcome.content } };
      case 'proceed_once':
        return { action: 'accept', content: { decision: 'proceed_once' } };
      default:
        return { action: 'accept', content: { decision: 'proceed_always' } };
    }
  }

  private match(alias: string, callId: string | undefined): TrackedCall | undefined {
    if (callId) {
      const byId = this.inFlight.get(callId);
      if (byId && byId.tool.serverAlias === alias) return byId;
    }
    const ofServer = [...this.inFlight.values()].filter((c) => c.tool.serverAlias === alias);
    return ofServer.length === 1 ? ofServer[0] : undefined;
  }

  /** Runs one question at a time; an aborted question resolves cancel without reaching the user. */
  private serialize(signal: AbortSignal, ask: () => Promise<UserAnswer>): Promise<UserAnswer> {
    const run = this.tail.then(async (): Promise<UserAnswer> => {
      if (signal.aborted) return { decision: 'cancel' };
      try {
        return await ask();
      } catch (err) {
        this.log(`confirmation failed: ${(err as Error).message}`);
        return { decision: 'cancel' };
      }
    });
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** What the user's answer amounted to; a modify the server cannot take was sent as a decline. */
export function userDecision(outcome: UserAnswer, answer?: ElicitResult): ToolCallOutcome {
  if (outcome.decision === 'cancel' || answer?.action === 'decline') return 'reject';
  return outcome.decision === 'modify' ? 'modify' : 'accept';
}

/** A dialog that ignores the signal must not hold an aborted turn: abort resolves cancel. */
function untilAborted(p: Promise<UserAnswer>, signal: AbortSignal): Promise<UserAnswer> {
  if (signal.aborted) return Promise.resolve({ decision: 'cancel' });
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve({ decision: 'cancel' });
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
