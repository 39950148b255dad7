import type { Widgets } from 'blessed';
import type { InputView } from './input-view.js';
import type { loadBlessed } from './blessed-load.js';
import { wrappedRows } from '../input/line-editor.js';

/** What one frame shows; the layout decides where. */
export interface Frame {
  banner?: string;
  conversation(width: number): string;
  activity(width: number): string;
  input: InputView;
  status(width: number): string;
  dialog?: { body: string; footer: string };
  /** The live completion list, shown between the activity line and the input. */
  suggestions?: string[];
  /** A panel kept above the activity line (the model's task list). */
  panel?: string[];
}

const stripSgr = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * Rows of the conversation kept visible above an open dialog, so the pending tool card and the model's
 * text before it stay in view (the dialog's body scrolls instead).
 */
const MIN_CONVERSATION_ROWS = 6;

/**
 * The screen's boxes, top to bottom: conversation (scrolling), an open dialog (its body scrolls, its
 * choices stay in view), activity line, input, status line. The dialog takes rows from the conversation
 * instead of covering it, and the conversation follows its end while one is open, so what is being asked
 * about sits right above the question. Knows rows and scrolling, nothing about content.
 */
export class ScreenLayout {
  /** Follow new output: false once the user scrolled up, true again at the bottom or on submit. */
  stickBottom = true;
  private readonly convBox: Widgets.BoxElement;
  private readonly activityBox: Widgets.BoxElement;
  private readonly inputBox: Widgets.BoxElement;
  private readonly statusBox: Widgets.BoxElement;
  private readonly dialogBox: Widgets.BoxElement;
  private readonly footerBox: Widgets.BoxElement;

  constructor(
    blessed: ReturnType<typeof loadBlessed>,
    private readonly screen: Widgets.Screen,
  ) {
    const base = { parent: screen, left: 0, width: '100%', tags: false, wrap: true } as const;
    const scrollbar = { ch: ' ', style: { bg: 'grey' } } as never;
    this.convBox = blessed.box({ ...base, top: 0, height: 1, scrollable: true, alwaysScroll: true, scrollbar });
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
    this.footerBox = blessed.box({ ...base, top: 0, height: 1, hidden: true });
  }

  get width(): number {
    return Math.max(10, this.screen.width as number);
  }

  apply(f: Frame): void {
    const W = this.width;
    const H = Math.max(5, this.screen.height as number);
    const inputRows = Math.min(Math.max(1, Math.floor(H / 3)), wrappedRows(f.input.plain, W));
    const listRows = Math.min(f.suggestions?.length ?? 0, Math.max(0, H - inputRows - 4));
    const panelRows = Math.min(f.panel?.length ?? 0, Math.max(0, H - inputRows - 4 - listRows));
    const convHeight = Math.max(1, H - inputRows - 2 - listRows - panelRows);
    const dialogRows = this.placeDialog(f.dialog, convHeight, W);
    const shown = convHeight - dialogRows;

    this.convBox.top = 0;
    this.convBox.height = shown;
    this.convBox.setContent((f.banner ? `${f.banner}\n\n` : '') + f.conversation(W - 1));
    // blessed keeps the old scroll offset when content shrinks (a closed dialog, /clear), which
    // would leave the conversation scrolled past its end: content that fits starts at the top.
    if ((this.convBox.getScrollHeight() as number) <= shown) this.convBox.setScroll(0);
    else if (this.stickBottom || dialogRows > 0) this.convBox.setScrollPerc(100);

    this.activityBox.top = convHeight;
    this.activityBox.height = panelRows + 1 + listRows;
    const panel = panelRows ? `${f.panel!.slice(0, panelRows).join('\n')}\n` : '';
    const list = listRows ? `\n${f.suggestions!.slice(0, listRows).join('\n')}` : '';
    this.activityBox.setContent(panel + f.activity(W) + list);

    this.inputBox.top = convHeight + panelRows + 1 + listRows;
    this.inputBox.height = inputRows;
    this.inputBox.setContent(f.input.styled);
    if (inputRows < wrappedRows(f.input.plain, W)) this.inputBox.setScrollPerc(100);

    this.statusBox.top = H - 1;
    this.statusBox.setContent(f.status(W - 1));
  }

  /** Places the dialog at the bottom of the conversation's rows; returns how many rows it takes. */
  private placeDialog(dialog: Frame['dialog'], convHeight: number, W: number): number {
    if (!dialog) {
      this.dialogBox.hide();
      this.footerBox.hide();
      return 0;
    }
    const keep = Math.min(convHeight - 4, Math.max(MIN_CONVERSATION_ROWS, Math.floor(convHeight * 0.4)));
    const room = convHeight - Math.max(0, keep);
    const bodyRows = wrappedRows(stripSgr(dialog.body), W - 2);
    // A body taller than the room scrolls; the choices below it say how.
    const scrolls = bodyRows + 2 + wrappedRows(stripSgr(dialog.footer), W) > room;
    const footer = scrolls ? `${dialog.footer}  (↑/↓, PgUp/PgDn scroll)` : dialog.footer;
    const footerRows = Math.min(room - 3, wrappedRows(stripSgr(footer), W));
    const boxRows = Math.max(3, Math.min(room - footerRows, bodyRows + 2));
    this.dialogBox.top = convHeight - boxRows - footerRows;
    this.dialogBox.height = boxRows;
    if (this.dialogBox.getContent() !== dialog.body) {
      this.dialogBox.setContent(dialog.body);
      this.dialogBox.setScroll(0);
    }
    this.footerBox.top = convHeight - footerRows;
    this.footerBox.height = footerRows;
    this.footerBox.setContent(footer);
    this.dialogBox.show();
    this.footerBox.show();
    return boxRows + footerRows;
  }

  /** PageUp / PageDown over the conversation. */
  page(dir: -1 | 1): void {
    const page = Math.max(1, (this.convBox.height as number) - 2);
    this.convBox.scroll(dir * page);
    this.stickBottom =
      this.convBox.getScrollPerc() >= 100 ||
      (this.convBox.getScrollHeight() as number) <= (this.convBox.height as number);
  }

  scrollDialog(lines: number): void {
    this.dialogBox.scroll(lines);
  }

  scrollDialogTo(edge: 'top' | 'bottom'): void {
    this.dialogBox.setScrollPerc(edge === 'top' ? 0 : 100);
  }
}
