import type { Widgets } from 'blessed';
import type { InputView } from './input-view.js';
import type { loadBlessed } from './blessed-load.js';
import { wrappedRows } from './line-editor.js';

/** What one frame shows; the layout decides where. */
export interface Frame {
  banner?: string;
  conversation(width: number): string;
  activity(width: number): string;
  input: InputView;
  status(width: number): string;
  dialog?: { body: string; footer: string };
}

const stripSgr = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * The screen's boxes, top to bottom: conversation (scrolling), activity line, input, status line; a
 * dialog box overlays the bottom of the conversation. Knows rows and scrolling, nothing about content.
 */
export class ScreenLayout {
  /** Follow new output: false once the user scrolled up, true again at the bottom or on submit. */
  stickBottom = true;
  private readonly convBox: Widgets.BoxElement;
  private readonly activityBox: Widgets.BoxElement;
  private readonly inputBox: Widgets.BoxElement;
  private readonly statusBox: Widgets.BoxElement;
  private readonly dialogBox: Widgets.BoxElement;

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
  }

  get width(): number {
    return Math.max(10, this.screen.width as number);
  }

  apply(f: Frame): void {
    const W = this.width;
    const H = Math.max(5, this.screen.height as number);
    const inputRows = Math.min(Math.max(1, Math.floor(H / 3)), wrappedRows(f.input.plain, W));
    const convHeight = Math.max(1, H - inputRows - 2);

    this.convBox.top = 0;
    this.convBox.height = convHeight;
    this.convBox.setContent((f.banner ? `${f.banner}\n\n` : '') + f.conversation(W - 1));
    // blessed keeps the old scroll offset when content shrinks (a closed dialog, /clear), which
    // would leave the conversation scrolled past its end: content that fits starts at the top.
    if ((this.convBox.getScrollHeight() as number) <= convHeight) this.convBox.setScroll(0);
    else if (this.stickBottom) this.convBox.setScrollPerc(100);

    this.activityBox.top = convHeight;
    this.activityBox.setContent(f.activity(W));

    this.inputBox.top = convHeight + 1;
    this.inputBox.height = inputRows;
    this.inputBox.setContent(f.input.styled);
    if (inputRows < wrappedRows(f.input.plain, W)) this.inputBox.setScrollPerc(100);

    this.statusBox.top = H - 1;
    this.statusBox.setContent(f.status(W - 1));
    this.placeDialog(f.dialog, convHeight, W);
  }

  private placeDialog(dialog: Frame['dialog'], convHeight: number, W: number): void {
    if (!dialog) {
      this.dialogBox.hide();
      return;
    }
    const content = `${dialog.body}\n\n${dialog.footer}`;
    const h = Math.min(convHeight, wrappedRows(stripSgr(content), W - 2) + 2);
    this.dialogBox.top = convHeight - h;
    this.dialogBox.height = h;
    if (this.dialogBox.getContent() !== content) {
      this.dialogBox.setContent(content);
      this.dialogBox.setScroll(0);
    }
    this.dialogBox.show();
    this.dialogBox.setFront();
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
}
