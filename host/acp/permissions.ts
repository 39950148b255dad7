import type * as acp from '@agentclientprotocol/sdk';
import type { ConfirmationRequest, Confirmer, UserAnswer } from '../scheduler/types.js';
import { confirmationToolCall } from './tool-calls.js';

/** Asks the editor (`session/request_permission`); resolves with its raw answer. */
export type PermissionAsker = (
  params: acp.RequestPermissionRequest,
  signal: AbortSignal,
) => Promise<acp.RequestPermissionResponse>;

const OPTIONS: acp.PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow always', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Reject always', kind: 'reject_always' },
];

/** A plan is approved or not, each time: Gemini CLI 0.61 offers no "always" for it. */
const PLAN_OPTIONS: acp.PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
];

/**
 * What "always" covers, for allowing and rejecting alike: a command's root commands for the shell
 * (as the chat's "always allow git"), every edit for edits, else the tool itself.
 */
function scopeKey(req: ConfirmationRequest): string {
  if (req.source === 'elicitation') {
    const d = req.detail;
    if (d.kind === 'exec') return `${req.tool.exposedName}\0exec\0${(d.rootCommands ?? [d.command ?? '']).join(',')}`;
    if (d.kind === 'edit') return `${req.tool.serverAlias}\0edit`;
  }
  return req.tool.exposedName;
}

/**
 * The chat's confirmation dialog, over ACP: the same questions become `session/request_permission` with
 * allow once / allow always / reject once / reject always. "Allow always" is policy's ("always" rules,
 * as the chat records them); "reject always" is kept here for the session, since policy has no
 * user-made deny rule: a rejected scope is answered `cancel` without asking again. A rejection never
 * runs or writes anything; the scheduler tells the model the tool was canceled and the prompt goes on,
 * as Gemini CLI's editor mode does (only `session/cancel` ends a prompt).
 */
export class AcpConfirmer implements Confirmer {
  readonly rejectionContinuesTurn = true;
  private readonly rejected = new Set<string>();

  constructor(
    private readonly sessionId: () => string,
    private readonly cwd: string,
    private readonly ask: PermissionAsker,
  ) {}

  async confirm(request: ConfirmationRequest, signal: AbortSignal): Promise<UserAnswer> {
    if (signal.aborted) return { decision: 'cancel' };
    const key = scopeKey(request);
    if (this.rejected.has(key)) return { decision: 'cancel' };
    let res: acp.RequestPermissionResponse;
    try {
      res = await this.ask(
        {
          sessionId: this.sessionId(),
          toolCall: confirmationToolCall(request, this.cwd),
          options: request.source === 'elicitation' && request.detail.kind === 'plan' ? PLAN_OPTIONS : OPTIONS,
        },
        signal,
      );
    } catch {
      // The editor failed to answer (or the turn was cancelled): nothing runs.
      return { decision: 'cancel' };
    }
    if (res.outcome.outcome !== 'selected') return { decision: 'cancel' };
    switch (res.outcome.optionId) {
      case 'allow_once':
        return { decision: 'proceed_once' };
      case 'allow_always':
        return request.source === 'pre-call'
          ? { decision: 'proceed_always', scope: 'tool' }
          : { decision: 'proceed_always' };
      case 'reject_always':
        this.rejected.add(key);
        return { decision: 'cancel' };
      default:
        return { decision: 'cancel' };
    }
  }
}
