import type { Widgets } from 'blessed';
import type { UserAnswer, ConfirmationRequest, Confirmer } from '../../scheduler/types.js';
import { choicesLine, confirmBody, confirmChoices, type ConfirmChoice } from './confirm-view.js';
import type { Palette } from '../text/palette.js';

interface Pending {
  request: ConfirmationRequest;
  signal: AbortSignal;
  resolve: (o: UserAnswer) => void;
}

export interface DialogHost {
  /** Shows the dialog text (or hides it with undefined) and redraws. */
  show(body: string | undefined, footer?: string): void;
  /** Opens `content` in the user's editor; resolves with the saved text, or undefined when it failed. */
  editText(content: string, fileName: string): Promise<string | undefined>;
  /** Scrolls the dialog body (PageUp / PageDown on a long diff). */
  scroll(lines: number): void;
  /** Jumps to the top or the bottom of the dialog body (Home / End, g / G). */
  scrollTo(edge: 'top' | 'bottom'): void;
  /** A call's question opened (true) or was answered (false): its card shows it is waiting. */
  asking?(callId: string, open: boolean): void;
}

/**
 * The terminal UI's `Confirmer`: one request at a time (parallel calls can ask together), answered by
 * a key. An aborted turn or a dismissed dialog answers cancel.
 */
export class ConfirmDialog implements Confirmer {
  private queue: Pending[] = [];
  private current?: { pending: Pending; choices: ConfirmChoice[]; onAbort: () => void };
  private editing = false;
  /** The feedback line being typed for a rejected plan (undefined: the choices are shown). */
  private feedback?: string;
  /** `ui.showLineNumbers`: line numbers beside the diff. */
  lineNumbers = true;

  constructor(
    private readonly host: DialogHost,
    private readonly palette: Palette,
  ) {}

  get isOpen(): boolean {
    return this.current !== undefined;
  }

  confirm(request: ConfirmationRequest, signal: AbortSignal): Promise<UserAnswer> {
    if (signal.aborted) return Promise.resolve({ decision: 'cancel' });
    return new Promise((resolve) => {
      this.queue.push({ request, signal, resolve });
      if (!this.current) this.next();
    });
  }

  /** Handles a key while open; returns true when the key was consumed (every key is, while open). */
  handleKey(ch: string | undefined, key: { name?: string; full?: string; ctrl?: boolean }): boolean {
    if (!this.current || this.editing) return this.isOpen;
    const name = key.name ?? '';
    if (this.feedback !== undefined) return this.typeFeedback(ch, name, key.ctrl === true), true;
    if (name === 'escape' || (key.ctrl && name === 'c')) return this.answer({ decision: 'cancel' }), true;
    if (name === 'pageup') return this.host.scroll(-10), true;
    if (name === 'pagedown') return this.host.scroll(10), true;
    if (name === 'up') return this.host.scroll(-1), true;
    if (name === 'down') return this.host.scroll(1), true;
    // Home / End (Ctrl too), and less's g / G: a 600-line diff is read from either end.
    if (name === 'home' || (ch === 'g' && !key.ctrl)) return this.host.scrollTo('top'), true;
    if (name === 'end' || ch === 'G') return this.host.scrollTo('bottom'), true;
    const pressed = (ch ?? name).toLowerCase();
    const byNumber = /^[1-9]$/.test(pressed) ? this.current.choices[Number(pressed) - 1] : undefined;
    const choice =
      byNumber ??
      this.current.choices.find((c) => c.key === pressed) ??
      (name === 'return' || name === 'enter' ? this.current.choices[0] : undefined);
    if (!choice) return true;
    if (choice.feedback) this.typeFeedback(undefined, '', false, '');
    else if (choice.decision === 'modify') void this.modify();
    else this.answer({ decision: choice.decision, ...(choice.scope ? { scope: choice.scope } : {}) } as UserAnswer);
    return true;
  }

  /** Cancels everything (the turn was aborted or the UI is closing). */
  cancelAll(): void {
    for (const p of this.queue.splice(0)) p.resolve({ decision: 'cancel' });
    if (this.current) this.answer({ decision: 'cancel' });
  }

  private next(): void {
    let pending = this.queue.shift();
    while (pending?.signal.aborted) {
      pending.resolve({ decision: 'cancel' });
      pending = this.queue.shift();
    }
    if (!pending) {
      this.current = undefined;
      this.host.show(undefined);
      return;
    }
    const choices = confirmChoices(pending.request, true);
    const onAbort = () => this.answer({ decision: 'cancel' });
    pending.signal.addEventListener('abort', onAbort, { once: true });
    this.current = { pending, choices, onAbort };
    this.host.asking?.(pending.request.callId, true);
    this.host.show(confirmBody(pending.request, this.palette, this.lineNumbers), choicesLine(choices, this.palette));
  }

  /**
   * One line of feedback, typed in the dialog's footer: Enter sends it with the rejection, Esc goes back to
   * the choices. `start` opens it.
   */
  private typeFeedback(ch: string | undefined, name: string, ctrl: boolean, start?: string): void {
    const cur = this.current;
    if (!cur) return;
    if (start === undefined && (name === 'return' || name === 'enter')) {
      this.answer({ decision: 'cancel', feedback: this.feedback ?? '' });
      return;
    }
    if (start !== undefined) this.feedback = start;
    else if (name === 'escape' || (ctrl && name === 'c')) this.feedback = undefined;
    else if (name === 'backspace') this.feedback = (this.feedback ?? '').slice(0, -1);
    else if (ch && !ctrl && !/[\x00-\x1f\x7f]/.test(ch)) this.feedback = (this.feedback ?? '') + ch;
    const body = confirmBody(cur.pending.request, this.palette, this.lineNumbers);
    const footer =
      this.feedback === undefined
        ? choicesLine(cur.choices, this.palette)
        : `${this.palette.yellow('Feedback:')} ${this.feedback}█  ${this.palette.gray('(enter sends, esc goes back)')}`;
    this.host.show(body, footer);
  }

  private answer(outcome: UserAnswer): void {
    const cur = this.current;
    if (!cur) return;
    this.feedback = undefined;
    cur.pending.signal.removeEventListener('abort', cur.onAbort);
    this.current = undefined;
    this.host.asking?.(cur.pending.request.callId, false);
    cur.pending.resolve(outcome);
    this.next();
  }

  private async modify(): Promise<void> {
    const cur = this.current;
    if (cur?.pending.request.source !== 'elicitation') return;
    const d = cur.pending.request.detail;
    this.editing = true;
    const name = (d.filePath ?? 'proposal.txt').split('/').pop() ?? 'proposal.txt';
    const edited = await this.host.editText(d.newContent ?? '', name);
    this.editing = false;
    if (this.current !== cur) return;
    if (edited === undefined) {
      this.host.show(
        confirmBody(cur.pending.request, this.palette, this.lineNumbers),
        `${this.palette.red('The editor failed.')} ${choicesLine(cur.choices, this.palette)}`,
      );
      return;
    }
    this.answer({ decision: 'modify', content: edited });
  }
}

export type { Widgets };
