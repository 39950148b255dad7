import type { ToolCall } from '../../scheduler/types.js';
import type { MarkdownRenderer } from '../text/markdown.js';
import type { Palette } from '../text/palette.js';
import { EXPAND_HINT, formatToolCard, type TerminalView } from './tool-card.js';
import { wrapText } from '../text/wrap.js';
import { safeBlock, safeText } from '../../safe-text.js';

export type Item =
  | { kind: 'user'; text: string }
  | { kind: 'model'; text: string; streaming: boolean }
  | { kind: 'thought'; subject: string; description: string }
  | { kind: 'tool'; call: ToolCall; execStart?: number; asking?: boolean; terminal?: TerminalView }
  | { kind: 'info'; text: string }
  | { kind: 'error'; text: string };

const VARIATION_SELECTORS = /[\uFE0E\uFE0F]/g;

interface Cached {
  width: number;
  version: number;
  text: string;
}

/**
 * The conversation as a list of items rendered to ANSI text. Each item caches its rendering per
 * width and version, so a streamed chunk re-renders only the item it belongs to.
 */
export class Conversation {
  private items: { item: Item; version: number; cache?: Cached }[] = [];
  private toolIndex = new Map<string, number>();
  showThoughts = false;
  /** `ui.showLineNumbers`: line numbers beside diffs. */
  lineNumbers = true;
  /** Ctrl+O: tool cards show their whole output instead of its last lines. */
  expandTools = false;
  /** Whether the last render clipped some card (the footer then offers Ctrl+O). */
  hasClipped = false;
  markdown?: MarkdownRenderer;

  constructor(private readonly palette: Palette) {}

  get length(): number {
    return this.items.length;
  }

  add(item: Item): number {
    this.items.push({ item, version: 0 });
    if (item.kind === 'tool') this.toolIndex.set(item.call.request.callId, this.items.length - 1);
    return this.items.length - 1;
  }

  /** Takes an item out (a toggled view); returns whether it was there. */
  remove(item: Item): boolean {
    const at = this.items.findIndex((e) => e.item === item);
    if (at < 0) return false;
    this.items.splice(at, 1);
    this.toolIndex.clear();
    for (const [i, e] of this.items.entries())
      if (e.item.kind === 'tool') this.toolIndex.set(e.item.call.request.callId, i);
    return true;
  }

  /** Takes out a tool call's card (a `!cmd` refused before it ran is reported in words instead). */
  removeTool(callId: string): void {
    const at = this.toolIndex.get(callId);
    const item = at === undefined ? undefined : this.items[at]?.item;
    if (item) this.remove(item);
  }

  get(index: number): Item | undefined {
    return this.items[index]?.item;
  }

  /** Mutates an item in place and marks it for re-rendering. */
  update(index: number, fn: (item: Item) => void): void {
    const entry = this.items[index];
    if (!entry) return;
    fn(entry.item);
    entry.version++;
  }

  /** Adds or refreshes the card of a tool call (keyed by call id). */
  upsertTool(call: ToolCall): void {
    const idx = this.toolIndex.get(call.request.callId);
    // Elapsed time counts from when the call started running, not from when it waited for approval.
    const execStart = call.status === 'executing' ? Date.now() : undefined;
    if (idx === undefined) this.add({ kind: 'tool', call, execStart });
    else
      this.update(idx, (it) => {
        if (it.kind !== 'tool') return;
        it.call = call;
        it.execStart ??= execStart;
      });
  }

  /**
   * Our servers ask mid-call (elicitation), so the call is already executing while its dialog is open:
   * the card says it awaits approval, and its elapsed time restarts once answered.
   */
  setAsking(callId: string, open: boolean): void {
    const idx = this.toolIndex.get(callId);
    if (idx === undefined) return;
    this.update(idx, (it) => {
      if (it.kind !== 'tool') return;
      it.asking = open;
      if (!open) it.execStart = Date.now();
    });
  }

  /** The live screen of a call's command running in a terminal (undefined: none any more). */
  setTerminal(callId: string, view: TerminalView | undefined): void {
    const idx = this.toolIndex.get(callId);
    if (idx === undefined) return;
    this.update(idx, (it) => {
      if (it.kind === 'tool') it.terminal = view;
    });
  }

  /** Executing cards show elapsed time: they change every second without an event. */
  touchLive(): boolean {
    let any = false;
    for (const e of this.items) {
      if (e.item.kind === 'tool' && e.item.call.status === 'executing') {
        e.version++;
        any = true;
      }
    }
    return any;
  }

  invalidateAll(): void {
    for (const e of this.items) e.cache = undefined;
  }

  clear(): void {
    this.items = [];
    this.toolIndex.clear();
  }

  render(width: number, now = Date.now()): string {
    const out: string[] = [];
    this.hasClipped = false;
    for (const e of this.items) {
      if (!e.cache || e.cache.width !== width || e.cache.version !== e.version) {
        e.cache = { width, version: e.version, text: this.renderItem(e.item, width, now) };
      }
      if (e.cache.text !== '') out.push(e.cache.text);
      if (e.item.kind === 'tool' && e.cache.text.includes(EXPAND_HINT)) this.hasClipped = true;
    }
    return out.join('\n\n');
  }

  private renderItem(item: Item, width: number, now: number): string {
    const p = this.palette;
    switch (item.kind) {
      // Text from the model, a resumed session file or a server is made safe first; our styling comes after.
      case 'user':
        return wrapText(safeBlock(item.text), width - 2)
          .split('\n')
          .map((l, i) => (i === 0 ? `${p.accent(p.bold('>'))} ${p.bold(l)}` : `  ${p.bold(l)}`))
          .join('\n');
      case 'model': {
        // Wrapped here (not by blessed) so continuation rows keep the indent and wide text is not cut.
        // Variation selectors (⚠️ = ⚠ + U+FE0F) are zero columns to the terminal but a cell to blessed:
        // dropped, the glyph draws the same and every row keeps its measured width (table borders line up).
        const text = safeBlock(item.text).replace(VARIATION_SELECTORS, '');
        const body = wrapText(this.markdown ? safeRender(this.markdown, text, width - 2) : text, width - 2);
        return body
          .split('\n')
          .map((l, i) => (i === 0 ? `${p.accent('✦')} ${l}` : `  ${l}`))
          .join('\n');
      }
      case 'thought': {
        const head = p.dim(`∴ ${safeText(item.subject || 'Thinking')}`);
        if (!this.showThoughts || !item.description.trim())
          return head + (item.description.trim() && !this.showThoughts ? p.gray(' (ctrl-t to expand)') : '');
        return `${head}\n${safeBlock(item.description)
          .trim()
          .split('\n')
          .map((l) => `  ${p.dim(l)}`)
          .join('\n')}`;
      }
      case 'tool':
        return formatToolCard(item.call, p, {
          width,
          asking: item.asking,
          now,
          execStart: item.execStart,
          expanded: this.expandTools,
          lineNumbers: this.lineNumbers,
          terminal: item.terminal,
        });
      case 'info':
        return item.text;
      case 'error':
        return p.red(item.text);
    }
  }
}

function safeRender(md: MarkdownRenderer, text: string, width: number): string {
  try {
    return md.render(text, width);
  } catch {
    return text;
  }
}
