import type { ClientAsker, SamplingApprovalRequest, SamplingDecision } from '../../mcp/client-requests.js';
import {
  buildContent,
  fieldProblem,
  initialText,
  type FormAnswer,
  type FormField,
  type FormRequest,
} from '../../mcp/elicitation-form.js';
import type { Palette } from '../text/palette.js';
import { safeBlock, safeText } from '../../safe-text.js';

export interface FormDialogHost {
  /** Shows the dialog text (or hides it with undefined) and redraws. */
  show(body: string | undefined, footer?: string): void;
}

type Key = { name?: string; ctrl?: boolean; shift?: boolean };

interface FormState {
  kind: 'form';
  request: FormRequest;
  texts: Record<string, string>;
  focus: number;
  errors: Record<string, string>;
  resolve: (a: FormAnswer) => void;
}

interface SamplingState {
  kind: 'sampling';
  request: SamplingApprovalRequest;
  resolve: (d: SamplingDecision) => void;
}

type Open = (FormState | SamplingState) & { signal: AbortSignal; onAbort: () => void };

/**
 * What servers ask the user in the chat: a form for an elicitation (one line per field, typed in place),
 * a URL to open, or approval for sampling. One at a time; an aborted request or Esc answers cancel/deny.
 * Keys: ↑/↓ or Tab move between fields, typing edits, ←/→ pick an option, Space toggles a yes/no field,
 * Enter goes to the next field and submits on the last, Ctrl-S submits, Ctrl-D declines, Esc cancels.
 */
export class FormDialog implements ClientAsker {
  private waiting: { open: () => void; cancel: () => void }[] = [];
  private current?: Open;

  constructor(
    private readonly host: FormDialogHost,
    private readonly palette: Palette,
  ) {}

  get isOpen(): boolean {
    return this.current !== undefined;
  }

  fillForm(request: FormRequest, signal: AbortSignal): Promise<FormAnswer> {
    return new Promise((resolve) => {
      const texts = Object.fromEntries(request.form.fields.map((f) => [f.key, initialText(f)]));
      this.enqueue({ kind: 'form', request, texts, focus: 0, errors: {}, resolve }, signal, () =>
        resolve({ action: 'cancel' }),
      );
    });
  }

  approveSampling(request: SamplingApprovalRequest, signal: AbortSignal): Promise<SamplingDecision> {
    return new Promise((resolve) =>
      this.enqueue({ kind: 'sampling', request, resolve }, signal, () => resolve('deny')),
    );
  }

  /** Cancels everything (the turn was aborted or the UI is closing). */
  cancelAll(): void {
    for (const w of this.waiting.splice(0)) w.cancel();
    if (this.current) this.abortCurrent();
  }

  handleKey(ch: string | undefined, key: Key): boolean {
    const cur = this.current;
    if (!cur) return false;
    const name = key.name ?? '';
    if (name === 'escape' || (key.ctrl && name === 'c')) return this.abortCurrent(), true;
    if (cur.kind === 'sampling') {
      const c = (ch ?? '').toLowerCase();
      if (c === 'y' || name === 'return') this.finish(() => cur.resolve('once'));
      else if (c === 'a') this.finish(() => cur.resolve('always'));
      else if (c === 'n') this.finish(() => cur.resolve('deny'));
      return true;
    }
    if (cur.request.url) return this.urlKey(cur, (ch ?? '').toLowerCase(), name), true;
    if (key.ctrl && name === 'd') return this.finish(() => cur.resolve({ action: 'decline' })), true;
    if (key.ctrl && name === 's') return this.submit(cur), true;
    this.editKey(cur, ch, key);
    this.render();
    return true;
  }

  /** Pasted text goes into the focused field (line breaks become spaces: fields are one line). */
  paste(text: string): void {
    const cur = this.current;
    if (cur?.kind !== 'form' || cur.request.url) return;
    const f = cur.request.form.fields[cur.focus];
    if (!f) return;
    cur.texts[f.key] += text.replace(/[\r\n]+/g, ' ').replace(/[\x00-\x1f\x7f]/g, '');
    this.render();
  }

  private urlKey(cur: FormState, c: string, name: string): void {
    if (c === 'y' || name === 'return') this.finish(() => cur.resolve({ action: 'accept', content: {} }));
    else if (c === 'n') this.finish(() => cur.resolve({ action: 'decline' }));
  }

  private editKey(cur: FormState, ch: string | undefined, key: Key): void {
    const fields = cur.request.form.fields;
    const f = fields[cur.focus];
    const name = key.name ?? '';
    if (name === 'up' || (name === 'tab' && key.shift)) cur.focus = Math.max(0, cur.focus - 1);
    else if (name === 'down' || name === 'tab') cur.focus = Math.min(fields.length - 1, cur.focus + 1);
    else if (name === 'return') {
      // Enter checks the field it leaves, so a mistake shows where it was made.
      const problem = f && fieldProblem(f, cur.texts[f.key]!);
      if (f && problem && !(problem === 'is required' && cur.focus < fields.length - 1)) cur.errors[f.key] = problem;
      else if (cur.focus >= fields.length - 1) this.submit(cur);
      else cur.focus++;
      return;
    } else if (!f) return;
    else if (name === 'backspace') cur.texts[f.key] = cur.texts[f.key]!.slice(0, -1);
    else if ((name === 'left' || name === 'right') && f.kind === 'enum')
      cur.texts[f.key] = cycle(f, cur.texts[f.key]!, name === 'left' ? -1 : 1);
    else if (name === 'space' && f.kind === 'boolean')
      cur.texts[f.key] = /^(y|yes|true)$/i.test(cur.texts[f.key]!) ? 'no' : 'yes';
    else if (ch && !key.ctrl && ch >= ' ' && ch !== '\x7f') cur.texts[f.key] += ch;
    delete cur.errors[f?.key ?? ''];
  }

  private submit(cur: FormState): void {
    const built = buildContent(cur.request.form, cur.texts);
    if (built.ok) {
      this.finish(() => cur.resolve({ action: 'accept', content: built.content }));
      return;
    }
    cur.errors = built.errors;
    cur.focus = Math.max(
      0,
      cur.request.form.fields.findIndex((f) => built.errors[f.key]),
    );
    this.render();
  }

  private enqueue(state: FormState | SamplingState, signal: AbortSignal, onCancel: () => void): void {
    const open = (): void => {
      if (signal.aborted) {
        onCancel();
        this.next();
        return;
      }
      const onAbort = () => this.abortCurrent();
      signal.addEventListener('abort', onAbort, { once: true });
      this.current = { ...state, signal, onAbort } as Open;
      this.render();
    };
    if (this.current) this.waiting.push({ open, cancel: onCancel });
    else open();
  }

  private abortCurrent(): void {
    const cur = this.current;
    if (!cur) return;
    this.finish(() => (cur.kind === 'form' ? cur.resolve({ action: 'cancel' }) : cur.resolve('deny')));
  }

  private finish(answer: () => void): void {
    const cur = this.current;
    if (!cur) return;
    cur.signal.removeEventListener('abort', cur.onAbort);
    this.current = undefined;
    answer();
    this.next();
  }

  private next(): void {
    const w = this.waiting.shift();
    if (w) w.open();
    else this.host.show(undefined);
  }

  private render(): void {
    const cur = this.current;
    if (!cur) return;
    const p = this.palette;
    if (cur.kind === 'sampling') {
      const r = cur.request;
      // The server's name and messages are its own words: made safe before our styling.
      const server = safeText(r.server);
      const body = [
        p.yellow(`MCP server ${p.bold(server)} asks to use the model (${r.model})`),
        '',
        safeBlock(r.summary),
      ].join('\n');
      this.host.show(
        body,
        `${p.bold('[y]')} allow once  ${p.bold('[a]')} always for ${server}  ${p.bold('[n]')} deny (esc)`,
      );
      return;
    }
    const { request } = cur;
    const head = [p.yellow(`MCP server ${p.bold(safeText(request.server))} asks:`), safeBlock(request.form.message)];
    if (request.url) {
      const body = [...head, '', `${p.gray('open:')} ${p.blue(safeText(request.url))}`].join('\n');
      this.host.show(body, `${p.bold('[y]')} I opened it  ${p.bold('[n]')} decline  ${p.bold('[esc]')} cancel`);
      return;
    }
    const lines = [...head, ''];
    for (const [i, f] of request.form.fields.entries()) {
      lines.push(...fieldLines(f, cur.texts[f.key] ?? '', i === cur.focus, cur.errors[f.key], p, request.form.message));
    }
    this.host.show(
      lines.join('\n'),
      `${p.bold('[enter]')} next/submit  ${p.bold('[ctrl-s]')} submit  ${p.bold('[ctrl-d]')} decline  ${p.bold('[esc]')} cancel`,
    );
  }
}

function cycle(f: FormField, text: string, step: number): string {
  const opts = f.options ?? [];
  if (!opts.length) return text;
  const at = opts.findIndex((o) => o.label === text || o.value === text);
  return opts[(at + step + opts.length) % opts.length]!.label;
}

function hintOf(f: FormField): string {
  const bits: string[] = [f.format ?? (f.kind === 'multi' ? 'comma-separated' : f.kind)];
  if (f.minimum !== undefined || f.maximum !== undefined) bits.push(`${f.minimum ?? '…'}–${f.maximum ?? '…'}`);
  if (f.kind === 'boolean') bits.push('space toggles');
  if (f.kind === 'enum') bits.push('←/→ or type');
  return bits.join(', ');
}

export function fieldLines(
  f: FormField,
  text: string,
  focused: boolean,
  error: string | undefined,
  p: Palette,
  /** The form's message, already on screen above the fields. */
  shown = '',
): string[] {
  const name = safeText(f.label);
  const label = `${focused ? p.accent('›') : ' '} ${p.bold(name)}${f.required ? p.red('*') : ''} ${p.gray(`(${safeText(hintOf(f))})`)}`;
  const value = `    ${safeText(text)}${focused ? p.accent('▏') : ''}`;
  const out = [label, value];
  if (f.options?.length)
    out.push(p.gray(`    ${f.options.map((o, i) => `${i + 1}) ${safeText(o.label)}`).join('  ')}`));
  // A description can be a document to review (a drafted spec) and keeps its lines; one that only repeats
  // the form's message (a one-question form) is not shown twice.
  if (focused && f.description && f.description.trim() !== shown.trim())
    out.push(
      ...safeBlock(f.description)
        .split('\n')
        .map((l) => p.gray(`    ${l}`)),
    );
  if (error) out.push(p.red(`    ${name} ${safeText(error)}`));
  return out;
}
