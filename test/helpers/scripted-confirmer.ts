import type { ConfirmationRequest, Confirmer } from '../../host/scheduler/types.js';
import type { UserAnswer } from '../../protocol/confirmation.js';

/** A queued answer, or one computed from the question. */
export type ScriptedAnswer = UserAnswer | ((req: ConfirmationRequest) => UserAnswer);

/**
 * The suite's one stand-in for the user at a confirmation: records every question and answers from a queue
 * (cancel once it runs dry, as a user who walked away would).
 */
export class ScriptedConfirmer implements Confirmer {
  seen: ConfirmationRequest[] = [];
  answers: ScriptedAnswer[];
  /** Run when a question arrives, before it is answered. */
  onAsk?: (req: ConfirmationRequest) => void;

  constructor(...answers: ScriptedAnswer[]) {
    this.answers = answers;
  }

  async confirm(req: ConfirmationRequest): Promise<UserAnswer> {
    this.seen.push(req);
    this.onAsk?.(req);
    const next = this.answers.shift() ?? { decision: 'cancel' };
    return typeof next === 'function' ? next(req) : next;
  }

  /** Forgets what was asked and queues new answers. */
  reset(...answers: ScriptedAnswer[]): void {
    this.seen = [];
    this.answers = answers;
    this.onAsk = undefined;
  }
}
