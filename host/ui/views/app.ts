import type { Suggestion } from '../slash-commands/command-suggestions.js';
import { type Todo, todoProgress } from '../../tools/write-todos.js';
import { todoPanel, todosOpen } from './todo-panel.js';
import { appendFileSync } from 'node:fs';
import type { Widgets } from 'blessed';
import { loadBlessed } from './blessed-load.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { FormDialog } from './elicitation-form-view.js';
import { Conversation } from './conversation.js';
import { ChatKeys } from '../input/chat-keys.js';
import type { KeyInfo } from '../input/edit-keys.js';
import { VimKeys } from '../input/vim-keys.js';
import { InputHistory } from '../input/history-store.js';
import { formatInput } from './input-view.js';
import { LineEditor } from '../input/line-editor.js';
import type { MarkdownRenderer } from '../text/markdown.js';
import { colorDepth, createPalette, type Palette, type ThemeName } from '../text/palette.js';
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE, installPasteFilter } from '../input/paste-filter.js';
import { type Frame, ScreenLayout } from './screen-layout.js';
import { formatActivity, formatStatusLine, type StatusInfo } from './status-line.js';
import { patchBlessedWideChars } from '../text/wide-chars.js';
import { DebugLog } from './debug-log.js';

const FRAME_MS = 33;

export type { KeyInfo };

export interface AppHandlers {
  submit(text: string): void;
  cancel(): void;
  cycleApprovalMode(): void;
  /** Ctrl+Y: yolo on, or back to the mode before it. */
  toggleYolo(): void;
  complete(text: string, cursor: number): { text: string; cursor: number; hint?: string } | undefined;
  /** The live list shown under the input while a command is typed. */
  suggest?(text: string): Suggestion[];
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
  /** Host diagnostics and servers' log messages; the runtime logs here (a full-screen UI has no stderr). */
  readonly debugLog = new DebugLog();
  handlers?: AppHandlers;
  status: StatusInfo;
  banner?: string;
  /** The live completion list (a slash command being typed) and the one Tab or ↑/↓ put in the input. */
  suggestions?: { items: Suggestion[]; selected: number };
  /** The model's task list (write_todos): a panel above the activity line while work is left. */
  private todos?: Todo[];
  /** Messages sent while a turn ran: they go out when it ends. */
  queued: string[] = [];
  /** `> `, or `! ` in shell mode. */
  promptMarker = '> ';
  busy?: { label: string; start: number; retry?: { text: string; until: number } };
  private hint?: string;
  private hintTimer?: NodeJS.Timeout;
  readonly layout: ScreenLayout;
  /**
   * Modal views (forms, prompts) get keys first, newest first; one that returns true consumes the key.
   * The confirmation dialog and then the chat keys see only what none of them consumed.
   */
  readonly interceptors: ((ch: string | undefined, key: KeyInfo) => boolean)[] = [];
  /** Takes a paste before the input does (a command's terminal that has the keys); true when taken. */
  pasteInterceptor?: (text: string) => boolean;
  private readonly keys = new ChatKeys(this);
  private dialogText?: { body: string; footer: string };
  private renderTimer?: NodeJS.Timeout;
  private lastRender = 0;
  private ticker?: NodeJS.Timeout;
  private frameNo = 0;
  private removePaste?: () => void;
  private trace?: (event: string, extra?: Record<string, unknown>) => void;
  private chunksSeen = 0;
  private keysSeen = 0;
  private destroyed = false;

  private readonly env: NodeJS.ProcessEnv;

  constructor(opts: { env: NodeJS.ProcessEnv; status: StatusInfo; traceFile?: string }) {
    this.env = opts.env;
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
    this.palette = createPalette(
      colorDepth(opts.env, (this.screen.tput as unknown as { colors?: number } | undefined)?.colors),
    );
    this.conv = new Conversation(this.palette);
    this.status = opts.status;
    this.debugLog.onChange = () => {
      if (this.status.unseenLogs === this.debugLog.unseen) return;
      this.status.unseenLogs = this.debugLog.unseen;
      this.requestRender();
    };
    if (opts.traceFile) this.trace = traceTo(opts.traceFile);
    this.layout = new ScreenLayout(blessed, this.screen);
    this.dialog = new ConfirmDialog(
      {
        show: (body, footer) => this.showDialog(body, footer),
        // The editor helper (and its shell-word parser) is needed only when the user asks to edit.
        editText: async (content, name) =>
          (await import('../input/editor.js')).openInEditor(this.screen, content, name, opts.env, this.preferredEditor),
        scroll: (n) => {
          this.layout.scrollDialog(n);
          this.requestRender();
        },
        scrollTo: (edge) => {
          this.layout.scrollDialogTo(edge);
          this.requestRender();
        },
        asking: (callId, open) => this.conv.setAsking(callId, open),
      },
      this.palette,
    );
    this.forms = new FormDialog(
      {
        show: (body, footer) => this.showDialog(body, footer),
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

  /** Shows a modal view's text in the dialog box (undefined hides it); its keys come through `interceptors`. */
  showDialog(body: string | undefined, footer?: string): void {
    this.dialogText = body === undefined ? undefined : { body, footer: footer ?? '' };
    this.requestRender();
  }

  setMarkdown(md: MarkdownRenderer): void {
    this.conv.markdown = md;
    this.conv.invalidateAll();
    this.requestRender();
  }

  /**
   * Ctrl+G, `/editor`: the input goes to `$VISUAL`/`$EDITOR` (screen suspended) and what is saved comes
   * back into the input, not sent, as in Gemini CLI.
   */
  async editInput(): Promise<void> {
    const { openInEditor } = await import('../input/editor.js');
    const text = await openInEditor(this.screen, this.editor.text, 'prompt.md', this.env, this.preferredEditor);
    if (text !== undefined) this.editor.set(text.replace(/\n$/, ''));
    this.screen.realloc();
    this.renderNow();
  }

  /**
   * Ctrl+V: an image on the clipboard is saved under the project temp folder and its `@path` inserted at
   * the cursor, as Gemini CLI does; without one (or without a clipboard tool) nothing changes.
   */
  async pasteImage(): Promise<void> {
    if (!this.projectTempDir) return;
    const { saveClipboardImage } = await import('../input/clipboard-image.js');
    const file = await saveClipboardImage(this.projectTempDir, this.env).catch(() => undefined);
    if (!file) return;
    const before = this.editor.text.slice(0, this.editor.cursor);
    this.editor.insert(`${before === '' || /\s$/.test(before) ? '' : ' '}@${file} `);
    this.requestRender();
  }

  /** A confirmation step in the conversation: Enter answers yes, Esc (or n) no; other keys are ignored. */
  ask(question: string): Promise<boolean> {
    this.conv.add({
      kind: 'info',
      text: `${this.palette.yellow(question)}\n${this.palette.gray('Enter to confirm, Esc to cancel.')}`,
    });
    this.requestRender();
    return new Promise((resolve) => {
      const onKey = (_ch: string | undefined, key: KeyInfo): boolean => {
        const yes = key.name === 'return' || key.name === 'enter' || key.name === 'y';
        const no = key.name === 'escape' || key.name === 'n';
        if (yes || no) {
          this.interceptors.splice(this.interceptors.indexOf(onKey), 1);
          resolve(yes);
        }
        return true;
      };
      this.interceptors.push(onKey);
    });
  }

  theme: ThemeName = 'dark';
  /** Where pasted clipboard images are saved (the runtime's project temp folder, once it has started). */
  projectTempDir?: string;

  /** `general.preferredEditor`: a Gemini CLI editor id, run instead of `$VISUAL` / `$EDITOR`. */
  preferredEditor?: string;
  /** `/vim`: vi keys in the input (off by default). */
  vim?: VimKeys;

  toggleVim(): boolean {
    this.vim = this.vim ? undefined : new VimKeys(this.editor, (dir) => this.keys.upDown(dir));
    this.status.vim = this.vim ? 'INSERT' : undefined;
    this.requestRender();
    return !!this.vim;
  }

  /** `/theme NAME`: every view shares this palette object, so it changes in place and all is redrawn. */
  setTheme(theme: ThemeName): void {
    this.theme = theme;
    Object.assign(this.palette, createPalette(this.palette.depth, theme));
    this.conv.invalidateAll();
    this.screen.realloc();
    this.renderNow();
  }

  /** Queued messages come back into the input, unsent, to be edited. */
  takeBackQueued(): void {
    if (!this.queued.length) return;
    const back = this.queued.splice(0).join('\n\n');
    this.editor.set(this.editor.text ? `${back}\n\n${this.editor.text}` : back);
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
    this.layout.apply(this.frame());
    this.screen.render();
    if (this.trace && (this.chunksSeen || this.keysSeen))
      this.trace('render', { n: this.chunksSeen, keys: this.keysSeen });
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
        this.frameNo++;
        this.conv.touchLive();
        this.requestRender();
      }, 100);
    } else if (!live && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  private frame(): Frame {
    const p = this.palette;
    return {
      banner: this.banner,
      conversation: (w) => this.conv.render(w),
      activity: (w) => {
        if (this.dialogText) return p.yellow('Waiting for your answer…');
        if (this.hint) return this.hint;
        if (this.busy) {
          const { retry, start, label } = this.busy;
          const left = retry ? retry.until - Date.now() : 0;
          // A retry's wait counts down in the footer; once it is over the turn's own label returns.
          const text = retry && left > 0 ? `${retry.text} in ${Math.ceil(left / 1000)}s` : label;
          return formatActivity(text, Date.now() - start, this.frameNo, p);
        }
        const hint = this.conv.expandTools
          ? ' ctrl+o collapse tool output '
          : this.conv.hasClipped
            ? ' ctrl+o expand tool output '
            : '';
        return p.gray(hint ? `${'─'.repeat(Math.max(0, w - hint.length - 2))}${hint}──` : '─'.repeat(w));
      },
      input: formatInput(this.editor.text, this.editor.cursor, p, {
        busy: this.busy !== undefined,
        width: this.layout.width,
        marker: this.promptMarker,
        queued: this.queued,
      }),
      status: (w) => formatStatusLine(this.status, w, p),
      dialog: this.dialogText,
      suggestions: this.dialogText ? undefined : this.suggestionLines(),
      panel: todosOpen(this.todos) ? todoPanel(this.todos, this.layout.width, p) : undefined,
    };
  }

  /** Shows the model's task list (undefined or empty: none); the footer shows its progress. */
  setTodos(todos: Todo[] | undefined): void {
    this.todos = todos?.length ? todos : undefined;
    this.status.todos = this.todos ? todoProgress(this.todos) : undefined;
    this.requestRender();
  }

  /** The live list, at most 8 rows around the selected one: `/name  what it does`. */
  private suggestionLines(): string[] | undefined {
    const s = this.suggestions;
    if (!s?.items.length) return undefined;
    const p = this.palette;
    const start = Math.max(0, Math.min(s.selected - 3, s.items.length - 8));
    const shown = s.items.slice(start, start + 8);
    const width = Math.max(...shown.map((i) => i.value.length));
    // One row each: the description is cut to what the terminal's width leaves.
    const room = Math.max(0, this.layout.width - width - 6);
    const cut = (t: string) => (t.length > room ? `${t.slice(0, Math.max(0, room - 1))}…` : t);
    return shown.map((item, i) => {
      const row = `${item.value.padEnd(width)}  ${p.gray(cut(item.help))}`;
      return start + i === s.selected ? `${p.accent('❯')} ${p.bold(row)}` : `  ${row}`;
    });
  }

  /** Recomputes the live list from the input (cleared when the input is no longer a command name). */
  refreshSuggestions(): void {
    const items = this.handlers?.suggest?.(this.editor.text) ?? [];
    this.suggestions = items.length ? { items, selected: -1 } : undefined;
  }

  private onPaste(text: string): void {
    if (this.dialog.isOpen) return;
    if (this.pasteInterceptor?.(text)) return;
    if (this.forms.isOpen) {
      this.forms.paste(text);
      return;
    }
    // Terminals paste line breaks as CR (tmux, xterm): keep them as newlines, drop other controls.
    this.editor.insert(text.replace(/\r\n?/g, '\n').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, ''));
    this.requestRender();
  }

  private onKey(ch: string | undefined, key: KeyInfo): void {
    if (this.destroyed) return;
    // 'enter' duplicates every 'return': nothing below may see both.
    if (key.name === 'enter') return;
    if (this.trace) this.trace('key', { keys: ++this.keysSeen });
    for (const intercept of this.interceptors) if (intercept(ch, key)) return;
    if (this.dialog.isOpen) return void this.dialog.handleKey(ch, key);
    if (this.forms.isOpen) return void this.forms.handleKey(ch, key);
    this.keys.handle(ch, key);
  }
}

function traceTo(file: string): (event: string, extra?: Record<string, unknown>) => void {
  return (event, extra) => {
    try {
      appendFileSync(
        file,
        `${JSON.stringify({ event, t: performance.timeOrigin + performance.now(), sinceStart: performance.now(), ...extra })}\n`,
      );
    } catch {
      // Tracing is a benchmark aid; never let it break the UI.
    }
  };
}
