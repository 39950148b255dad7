import { appendFileSync } from 'node:fs';
import type { Widgets } from 'blessed';
import { loadBlessed } from './blessed-load.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { FormDialog } from './elicitation-form-view.js';
import { Conversation } from './conversation.js';
import { InputHistory } from './history-store.js';
import { LineEditor, wrappedRows } from './line-editor.js';
import type { MarkdownRenderer } from './markdown.js';
import { colorDepth, createPalette, type Palette } from './palette.js';
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE, installPasteFilter } from './paste-filter.js';
import { formatActivity, formatStatusLine, type StatusInfo } from './status-line.js';
import { patchBlessedWideChars } from './wide-chars.js';

const FRAME_MS = 33;

export interface KeyInfo {
  name?: string;
  full?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
  sequence?: string;
}

export interface AppHandlers {
  submit(text: string): void;
  cancel(): void;
  cycleApprovalMode(): void;
  complete(text: string, cursor: number): { text: string; cursor: number; hint?: string } | undefined;
  exit(): void;
}

/**
 * The screen: conversation (scrolling), activity line, input box, status line, and a dialog overlay.
 * Owns layout, key routing, the input editor and throttled rendering; what a submission does is up to
 * the handlers (the session controller).
 */
export class App {
  readonly screen: Widgets.Screen;
  readonly palette: Palette;
  readonly conv: Conversation;
  readonly editor = new LineEditor();
  readonly dialog: ConfirmDialog;
  /** Servers' forms and sampling approvals (the session's ClientAsker); shares the dialog box. */
  readonly forms: FormDialog;
  history = new InputHistory();
  handlers?: AppHandlers;
  status: StatusInfo;
  banner?: string;
  busy?: { label: string; start: number };
  private hint?: string;
  private hintTimer?: NodeJS.Timeout;
  private convBox: Widgets.BoxElement;
  private activityBox: Widgets.BoxElement;
  private inputBox: Widgets.BoxElement;
  private statusBox: Widgets.BoxElement;
  private dialogBox: Widgets.BoxElement;
  private dialogText?: { body: string; footer: string };
  private renderTimer?: NodeJS.Timeout;
  private lastRender = 0;
  private ticker?: NodeJS.Timeout;
  private frame = 0;
  private stickBottom = true;
  private ctrlCAt = 0;
  private removePaste?: () => void;
  private trace?: (event: string, extra?: Record<string, unknown>) => void;
  private chunksSeen = 0;
  private destroyed = false;

  constructor(opts: { env: NodeJS.ProcessEnv; status: StatusInfo; traceFile?: string }) {
    patchBlessedWideChars();
    const blessed = loadBlessed();
    this.removePaste = installPasteFilter(process.stdin, (text) => this.onPaste(text));
    this.screen = blessed.screen({
      smartCSR: true,
      fullUnicode: true,
      autoPadding: false,
      warnings: false,
      title: 'gemini-mcp',
      dockBorders: true,
      ignoreLocked: ['C-c'],
    });
    this.palette = createPalette(colorDepth(opts.env, (this.screen.tput as unknown as { colors?: number } | undefined)?.colors));
    this.conv = new Conversation(this.palette);
    this.status = opts.status;
    if (opts.traceFile) {
      const file = opts.traceFile;
      this.trace = (event, extra) => {
        try {
          appendFileSync(file, `${JSON.stringify({ event, t: performance.timeOrigin + performance.now(), sinceStart: performance.now(), ...extra })}\n`);
        } catch {
          // Tracing is a benchmark aid; never let it break the UI.
        }
      };
    }
    const base = { parent: this.screen, left: 0, width: '100%', tags: false, wrap: true } as const;
    this.convBox = blessed.box({ ...base, top: 0, height: 1, scrollable: true, alwaysScroll: true, scrollbar: { ch: ' ', style: { bg: 'grey' } } as never });
    this.activityBox = blessed.box({ ...base, top: 0, height: 1 });
    this.inputBox = blessed.box({ ...base, top: 0, height: 1 });
    this.statusBox = blessed.box({ ...base, top: 0, height: 1 });
    this.dialogBox = blessed.box({
      ...base,
      top: 0,
      height: 3,
      border: { type: 'line' },
      style: { border: { fg: 'yellow' } },
      scrollable: true,
      alwaysScroll: true,
      hidden: true,
    });
    this.dialog = new ConfirmDialog(
      {
        show: (body, footer) => {
          this.dialogText = body === undefined ? undefined : { body, footer: footer ?? '' };
          this.requestRender();
        },
        // The editor helper (and its shell-word parser) is needed only when the user asks to edit.
        editText: async (content, name) => (await import('./editor.js')).openInEditor(this.screen, content, name, opts.env),
        scroll: (n) => {
          this.dialogBox.scroll(n);
          this.requestRender();
        },
        asking: (callId, open) => this.conv.setAsking(callId, open),
      },
      this.palette,
    );
    this.forms = new FormDialog(
      {
        show: (body, footer) => {
          this.dialogText = body === undefined ? undefined : { body, footer: footer ?? '' };
          this.requestRender();
        },
      },
      this.palette,
    );
    this.screen.program.output.write(ENABLE_BRACKETED_PASTE);
    this.screen.on('keypress', (ch: string | undefined, key: KeyInfo) => this.onKey(ch, key));
    this.screen.on('resize', () => {
      this.conv.invalidateAll();
      this.renderNow();
    });
    this.renderNow();
    this.trace?.('input-ready');
  }

  setMarkdown(md: MarkdownRenderer): void {
    this.conv.markdown = md;
    this.conv.invalidateAll();
    this.requestRender();
  }

  setBusy(label: string | undefined): void {
    if (label && !this.busy) this.busy = { label, start: Date.now() };
    else if (label && this.busy) this.busy.label = label;
    else this.busy = undefined;
    this.updateTicker();
    this.requestRender();
  }

  flash(text: string, ms = 2500): void {
    this.hint = text;
    if (this.hintTimer) clearTimeout(this.hintTimer);
    this.hintTimer = setTimeout(() => {
      this.hint = undefined;
      this.requestRender();
    }, ms);
    this.hintTimer.unref();
    this.requestRender();
  }

  /** Benchmark hook: a content chunk arrived; the next render records how many it shows. */
  noteChunk(): void {
    this.chunksSeen++;
    this.trace?.('chunk', { n: this.chunksSeen });
  }

  requestRender(): void {
    if (this.renderTimer || this.destroyed) return;
    const wait = Math.max(0, FRAME_MS - (Date.now() - this.lastRender));
    this.renderTimer = setTimeout(() => {
      this.renderTimer = undefined;
      this.renderNow();
    }, wait);
  }

  renderNow(): void {
    if (this.destroyed) return;
    this.lastRender = Date.now();
    this.layout();
    this.screen.render();
    if (this.chunksSeen) this.trace?.('render', { n: this.chunksSeen });
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    if (this.renderTimer) clearTimeout(this.renderTimer);
    if (this.ticker) clearInterval(this.ticker);
    if (this.hintTimer) clearTimeout(this.hintTimer);
    this.dialog.cancelAll();
    this.forms.cancelAll();
    this.screen.program.output.write(DISABLE_BRACKETED_PASTE);
    this.screen.destroy();
    this.removePaste?.();
  }

  private updateTicker(): void {
    const live = this.busy !== undefined;
    if (live && !this.ticker) {
      this.ticker = setInterval(() => {
        this.frame++;
        this.conv.touchLive();
        this.requestRender();
      }, 100);
    } else if (!live && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  private layout(): void {
    const W = Math.max(10, this.screen.width as number);
    const H = Math.max(5, this.screen.height as number);
    const p = this.palette;
    const inputText = this.inputDisplay();
    const inputRows = Math.min(Math.max(1, Math.floor(H / 3)), wrappedRows(inputText.plain, W));
    const convHeight = Math.max(1, H - inputRows - 2);

    const atBottom = this.stickBottom;
    this.convBox.top = 0;
    this.convBox.height = convHeight;
    const body = this.conv.render(W - 1);
    const banner = this.banner ? `${this.banner}\n\n` : '';
    this.convBox.setContent(banner + body);
    // blessed keeps the old scroll offset when content shrinks (a closed dialog, /clear), which
    // would leave the conversation scrolled past its end: content that fits starts at the top.
    if ((this.convBox.getScrollHeight() as number) <= convHeight) this.convBox.setScroll(0);
    else if (atBottom) this.convBox.setScrollPerc(100);

    this.activityBox.top = convHeight;
    let activity: string;
    if (this.dialogText) activity = p.yellow('Waiting for your answer…');
    else if (this.hint) activity = this.hint;
    else if (this.busy) activity = formatActivity(this.busy.label, Date.now() - this.busy.start, this.frame, p);
    else activity = p.gray('─'.repeat(W));
    this.activityBox.setContent(activity);

    this.inputBox.top = convHeight + 1;
    this.inputBox.height = inputRows;
    this.inputBox.setContent(inputText.styled);
    if (inputRows < wrappedRows(inputText.plain, W)) this.inputBox.setScrollPerc(100);

    this.statusBox.top = H - 1;
    this.statusBox.setContent(formatStatusLine(this.status, W - 1, p));

    if (this.dialogText) {
      const content = `${this.dialogText.body}\n\n${this.dialogText.footer}`;
      const rows = wrappedRows(content.replace(/\x1b\[[0-9;]*m/g, ''), W - 2) + 2;
      const h = Math.min(convHeight, rows);
      this.dialogBox.top = convHeight - h;
      this.dialogBox.height = h;
      if (this.dialogBox.getContent() !== content) {
        this.dialogBox.setContent(content);
        this.dialogBox.setScroll(0);
      }
      this.dialogBox.show();
      this.dialogBox.setFront();
    } else {
      this.dialogBox.hide();
    }
  }

  private inputDisplay(): { plain: string; styled: string } {
    const { text, cursor } = this.editor;
    const p = this.palette;
    const prefix = (i: number) => (i === 0 ? '> ' : '  ');
    const before = text.slice(0, cursor);
    const at = cursor < text.length && text[cursor] !== '\n' ? text[cursor] : ' ';
    const after = cursor < text.length && text[cursor] !== '\n' ? text.slice(cursor + at.length) : text.slice(cursor);
    const cursorCh = `\x1b[7m${at}\x1b[27m`;
    const withCursor = before + cursorCh + after;
    const lines = withCursor.split('\n');
    const styled = lines.map((l, i) => `${i === 0 ? p.accent(p.bold(prefix(i))) : prefix(i)}${l}`).join('\n');
    const plain = (text + ' ').split('\n').map((l, i) => prefix(i) + l).join('\n');
    if (text === '' && !this.busy) {
      // The placeholder is one row: the long form only where it fits.
      const long = 'Type your message, @path/to/file, @server__tool({...}) or /help';
      const hint = long.length + 3 < (this.screen.width as number) ? long : 'Type your message or /help';
      return { plain: '> Type your message or /help', styled: `${p.accent(p.bold('> '))}${cursorCh}${p.gray(hint)}` };
    }
    return { plain, styled };
  }

  private onPaste(text: string): void {
    if (this.dialog.isOpen) return;
    if (this.forms.isOpen) return this.forms.paste(text);
    // Terminals paste line breaks as CR (tmux, xterm): keep them as newlines, drop other controls.
    this.editor.insert(text.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, ''));
    this.requestRender();
  }

  private onKey(ch: string | undefined, key: KeyInfo): void {
    if (this.destroyed) return;
    if (this.dialog.isOpen) {
      // 'enter' duplicates every 'return'; let the dialog see one of them.
      if (key.name !== 'enter') this.dialog.handleKey(ch, key);
      return;
    }
    if (this.forms.isOpen) {
      if (key.name !== 'enter') this.forms.handleKey(ch, key);
      return;
    }
    const h = this.handlers;
    const name = key.name ?? '';
    const ed = this.editor;
    if (name === 'enter') return;
    if (key.ctrl && name === 'c') {
      if (this.busy) return void h?.cancel();
      if (ed.text !== '') {
        ed.clear();
        this.history.reset();
        return this.requestRender();
      }
      const now = Date.now();
      if (now - this.ctrlCAt < 2000) return void h?.exit();
      this.ctrlCAt = now;
      return this.flash(this.palette.yellow('Press Ctrl-C again to exit.'), 2000);
    }
    if (name === 'escape') {
      if (this.busy) h?.cancel();
      return;
    }
    if (name === 'tab' && key.shift) return void h?.cycleApprovalMode();
    if (name === 'tab') {
      const r = h?.complete(ed.text, ed.cursor);
      if (r) {
        ed.set(r.text, r.cursor);
        if (r.hint) this.flash(r.hint, 4000);
      }
      return this.requestRender();
    }
    if (name === 'return' && key.sequence === '\x1b\r') return this.insert('\n');
    if (key.meta && (name === '\r' || name === 'return')) return this.insert('\n');
    if (name === 'linefeed') return this.insert('\n');
    if (name === 'return') {
      if (ed.text.endsWith('\\') && ed.cursor === ed.text.length) {
        ed.backspace();
        return this.insert('\n');
      }
      const text = ed.text;
      if (text.trim() === '') return;
      ed.clear();
      this.history.add(text);
      this.stickBottom = true;
      this.requestRender();
      h?.submit(text);
      return;
    }
    if (name === 'up') {
      if (ed.moveLine(-1)) return this.requestRender();
      const prev = this.history.prev(ed.text);
      if (prev !== undefined) ed.set(prev);
      return this.requestRender();
    }
    if (name === 'down') {
      if (ed.moveLine(1)) return this.requestRender();
      const next = this.history.next();
      if (next !== undefined) ed.set(next);
      return this.requestRender();
    }
    if (name === 'pageup' || name === 'pagedown') {
      const page = Math.max(1, (this.convBox.height as number) - 2);
      this.convBox.scroll(name === 'pageup' ? -page : page);
      this.stickBottom = this.convBox.getScrollPerc() >= 100 || (this.convBox.getScrollHeight() as number) <= (this.convBox.height as number);
      this.screen.render();
      return;
    }
    if (key.ctrl && name === 't') {
      this.conv.showThoughts = !this.conv.showThoughts;
      this.conv.invalidateAll();
      return this.requestRender();
    }
    if (key.ctrl && name === 'l') {
      this.screen.realloc();
      return this.renderNow();
    }
    if (name === 'backspace') ed.backspace();
    else if (name === 'delete' || (key.ctrl && name === 'd')) ed.deleteForward();
    else if (name === 'left') ed.left();
    else if (name === 'right') ed.right();
    else if (name === 'home' || (key.ctrl && name === 'a')) ed.home();
    else if (name === 'end' || (key.ctrl && name === 'e')) ed.end();
    else if (key.ctrl && name === 'u') ed.killToStart();
    else if (key.ctrl && name === 'k') ed.killToEnd();
    else if (key.ctrl && name === 'w') ed.deleteWord();
    else if (ch && !key.ctrl && !key.meta && !/[\x00-\x1f\x7f]/.test(ch)) ed.insert(ch);
    else return;
    this.history.reset();
    this.requestRender();
  }

  private insert(s: string): void {
    this.editor.insert(s);
    this.requestRender();
  }
}
