import { TerminalScreen } from '../../protocol/terminal-screen.js';
import { safeText } from '../safe-text.js';
import type { SchedulerEvent, ToolCall } from '../scheduler/types.js';
import type { UiRuntime } from './backend-types.js';
import type { KeyInfo } from './input/edit-keys.js';
import { keyBytes } from './input/pty-keys.js';
import { type ShellWriteOutcome, shellWriteOutcome } from './shell-write-outcome.js';
import type { App } from './views/app.js';

/** The server tool that types into a running command (`servers/shell/tools/write-to-shell.ts`). */
const WRITE_TOOL = 'write_to_shell';

const ENDED = new Set(['success', 'error', 'cancelled']);

interface Live {
  callId: string;
  serverAlias: string;
  pid: number;
  screen: TerminalScreen;
}

/**
 * The chat's side of commands run in a pseudo-terminal: every call says the user is at a terminal of the
 * card's size, each such command's bytes are rendered into a live screen on its card, Tab sends the keys to
 * it (every key, Ctrl-C and Esc included) and Shift+Tab gives them back to the prompt, as in Gemini CLI 0.61.
 * The keystrokes go straight to the server's `write_to_shell`: the user is typing, not the model, so no
 * scheduler, policy or confirmation is involved (the command itself was approved when it started).
 */
export class InteractiveShell {
  private readonly live = new Map<string, Live>();
  private focused?: Live;
  /** Keys typed while the previous write is on its way: sent together, in order. */
  private queued = '';
  private sending = false;

  constructor(
    private readonly app: App,
    private readonly runtime: UiRuntime,
  ) {}

  /** The terminal a command gets: the card's width, and a screen's height that leaves the prompt in view. */
  size(): { cols: number; rows: number } {
    const width = Number(this.app.screen.width) || 80;
    const height = Number(this.app.screen.height) || 24;
    return { cols: Math.max(20, width - 6), rows: Math.max(5, Math.min(24, height - 10)) };
  }

  onEvent(ev: SchedulerEvent): void {
    if (ev.type === 'tool_terminal') this.output(ev);
    else if (ev.type === 'tool_call_update' && ENDED.has(ev.call.status)) this.ended(ev.call);
  }

  /** The chat's keys pass here first; true when the key was the terminal's. */
  handleKey(ch: string | undefined, key: KeyInfo): boolean {
    if (this.app.dialog.isOpen || this.app.forms.isOpen) return false;
    const name = key.name ?? '';
    if (!this.focused) {
      const target = this.newest();
      if (!target || name !== 'tab' || key.shift) return false;
      this.setFocus(target);
      return true;
    }
    if (name === 'tab' && key.shift) {
      this.setFocus(undefined);
      return true;
    }
    const bytes = keyBytes(ch, key);
    if (bytes) this.send(bytes);
    return true;
  }

  /** A paste while the terminal has the keys is typed into it, line breaks as the terminal sends them. */
  handlePaste(text: string): boolean {
    if (!this.focused) return false;
    this.send(text.replace(/\r?\n/g, '\r'));
    return true;
  }

  /** The screen changed size: every live terminal follows (the command gets SIGWINCH). */
  resize(): void {
    const { cols, rows } = this.size();
    for (const live of this.live.values()) {
      live.screen.resize(cols, rows);
      // A resize that fails is not worth a message; a command found gone is given up like a failed key.
      void this.write(live, { cols, rows }).then((out) => {
        if (!out.ok && out.gone) this.lost(live, out.reason, '', true);
      });
      void live.screen.settled().then(() => this.draw(live));
    }
  }

  private newest(): Live | undefined {
    return [...this.live.values()].pop();
  }

  private output(ev: Extract<SchedulerEvent, { type: 'tool_terminal' }>): void {
    let live = this.live.get(ev.callId);
    if (!live) {
      const { cols, rows } = this.size();
      live = { callId: ev.callId, serverAlias: ev.serverAlias, pid: ev.pid, screen: new TerminalScreen(cols, rows) };
      this.live.set(ev.callId, live);
    }
    const it = live;
    it.screen.write(ev.data);
    void it.screen.settled().then(() => this.draw(it));
  }

  private draw(live: Live): void {
    if (this.live.get(live.callId) !== live) return;
    this.app.conv.setTerminal(live.callId, { rows: live.screen.screenRows(), focused: this.focused === live });
    this.app.requestRender();
  }

  private ended(call: ToolCall): void {
    const live = this.live.get(call.request.callId);
    if (!live) return;
    this.live.delete(live.callId);
    // A cancelled command's card keeps the screen as it was; an ended one shows its result instead.
    const last = call.status === 'cancelled' ? { rows: live.screen.screenRows(), focused: false } : undefined;
    live.screen.dispose();
    this.app.conv.setTerminal(live.callId, last);
    if (this.focused === live) this.setFocus(undefined);
  }

  private setFocus(live: Live | undefined): void {
    const was = this.focused;
    this.focused = live;
    this.queued = '';
    for (const l of [was, live]) if (l) this.draw(l);
    this.app.requestRender();
  }

  private send(bytes: string): void {
    this.queued += bytes;
    if (!this.sending) void this.flush();
  }

  private async flush(): Promise<void> {
    this.sending = true;
    try {
      while (this.queued && this.focused) {
        const live = this.focused;
        const input = this.queued;
        this.queued = '';
        const out = await this.write(live, { input });
        if (!out.ok) this.lost(live, out.reason, input, out.gone);
      }
    } finally {
      this.sending = false;
    }
  }

  /** One `write_to_shell` call, never rejecting: what became of it is judged in one place. */
  private write(live: Live, args: { input: string } | { cols: number; rows: number }): Promise<ShellWriteOutcome> {
    return this.runtime.manager.callTool(live.serverAlias, WRITE_TOOL, { pid: live.pid, ...args }).then(
      (result) => shellWriteOutcome(result),
      (err: unknown) => shellWriteOutcome(undefined, err ?? 'failed'),
    );
  }

  /**
   * Keys that did not reach the command are said so, once for the burst (the keys queued behind it are
   * dropped with it rather than sent into the same failure); a command that is gone gives the keys back to
   * the prompt, as if it had ended.
   */
  private lost(live: Live, reason: string, input: string, gone: boolean): void {
    const mine = this.focused === live;
    const dropped = input.length + (mine ? this.queued.length : 0);
    if (mine) this.queued = '';
    const end = gone ? " The command is no longer running; the keys are the prompt's again." : '';
    if (dropped > 0) {
      const what = `${dropped} typed character${dropped === 1 ? '' : 's'} not delivered`;
      const text = `Input not sent to the command (PID ${live.pid}): ${safeText(reason)} (${what}).${end}`;
      this.app.conv.add({ kind: 'error', text });
    } else if (gone && mine) {
      // Nothing typed was lost (a resize found it gone), but the keys move: the user is told why.
      this.app.conv.add({
        kind: 'error',
        text: `The command (PID ${live.pid}) cannot take input: ${safeText(reason)}${end}`,
      });
    }
    if (gone && mine) this.setFocus(undefined);
    this.app.requestRender();
  }
}

/** `tools.shell.enableInteractiveShell` (Gemini CLI 0.61's key, on unless false). */
export function interactiveShellEnabled(merged: { tools?: { shell?: { enableInteractiveShell?: unknown } } }): boolean {
  return merged.tools?.shell?.enableInteractiveShell !== false;
}

/** Turns the chat's interactive shell on: calls carry the terminal size, and its keys come first. */
export function startInteractiveShell(app: App, runtime: UiRuntime): InteractiveShell {
  const shell = new InteractiveShell(app, runtime);
  runtime.scheduler.userTerminal = () => shell.size();
  runtime.scheduler.on('event', (ev: SchedulerEvent) => shell.onEvent(ev));
  app.interceptors.push((ch, key) => shell.handleKey(ch, key));
  app.pasteInterceptor = (text) => shell.handlePaste(text);
  app.screen.on('resize', () => shell.resize());
  return shell;
}
