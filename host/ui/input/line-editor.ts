import { textWidth } from '../text/text-width.js';

/**
 * The input box's text model: a multi-line buffer and a cursor (index into the string). Pure, so
 * key handling is unit-tested without a terminal.
 */
export class LineEditor {
  text = '';
  cursor = 0;

  set(text: string, cursor = text.length): void {
    this.text = text;
    this.cursor = Math.max(0, Math.min(cursor, text.length));
  }

  insert(s: string): void {
    // Pasted CRLF / CR line ends become plain newlines; tabs become spaces so widths stay predictable.
    const clean = s.replace(/\r\n?/g, '\n').replace(/\t/g, '  ');
    this.text = this.text.slice(0, this.cursor) + clean + this.text.slice(this.cursor);
    this.cursor += clean.length;
  }

  backspace(): void {
    if (this.cursor === 0) return;
    const step = charBefore(this.text, this.cursor).length;
    this.text = this.text.slice(0, this.cursor - step) + this.text.slice(this.cursor);
    this.cursor -= step;
  }

  deleteForward(): void {
    if (this.cursor >= this.text.length) return;
    const step = charAt(this.text, this.cursor).length;
    this.text = this.text.slice(0, this.cursor) + this.text.slice(this.cursor + step);
  }

  left(): void {
    if (this.cursor > 0) this.cursor -= charBefore(this.text, this.cursor).length;
  }

  right(): void {
    if (this.cursor < this.text.length) this.cursor += charAt(this.text, this.cursor).length;
  }

  home(): void {
    this.cursor = this.text.lastIndexOf('\n', this.cursor - 1) + 1;
  }

  end(): void {
    const nl = this.text.indexOf('\n', this.cursor);
    this.cursor = nl === -1 ? this.text.length : nl;
  }

  /** Ctrl-U: delete from line start to the cursor. */
  killToStart(): void {
    const start = this.text.lastIndexOf('\n', this.cursor - 1) + 1;
    this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
    this.cursor = start;
  }

  /** Ctrl-K: delete from the cursor to line end. */
  killToEnd(): void {
    const nl = this.text.indexOf('\n', this.cursor);
    this.text = this.text.slice(0, this.cursor) + (nl === -1 ? '' : this.text.slice(nl));
  }

  /** Ctrl-W: delete the word before the cursor. */
  deleteWord(): void {
    const before = this.text.slice(0, this.cursor);
    const m = /(\S+\s*|\s+)$/.exec(before);
    if (!m) return;
    this.text = before.slice(0, before.length - m[0].length) + this.text.slice(this.cursor);
    this.cursor -= m[0].length;
  }

  get lineCount(): number {
    return this.text.split('\n').length;
  }

  /** Row (0-based logical line) of the cursor: up/down move lines inside multi-line text. */
  get cursorRow(): number {
    return this.text.slice(0, this.cursor).split('\n').length - 1;
  }

  /** Moves the cursor one logical line up (-1) or down (+1); false at the first / last line. */
  moveLine(dir: -1 | 1): boolean {
    const lines = this.text.split('\n');
    const row = this.cursorRow;
    const target = row + dir;
    if (target < 0 || target >= lines.length) return false;
    const col = this.cursor - (this.text.lastIndexOf('\n', this.cursor - 1) + 1);
    let idx = 0;
    for (let i = 0; i < target; i++) idx += lines[i].length + 1;
    this.cursor = idx + Math.min(col, lines[target].length);
    return true;
  }

  clear(): void {
    this.text = '';
    this.cursor = 0;
  }
}

function charBefore(s: string, i: number): string {
  const code = s.charCodeAt(i - 1);
  return code >= 0xdc00 && code <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s.slice(i - 1, i);
}

function charAt(s: string, i: number): string {
  const code = s.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff ? s.slice(i, i + 2) : s.slice(i, i + 1);
}

/** How many terminal rows `text` takes when wrapped at `cols` columns (wide characters count double). */
export function wrappedRows(text: string, cols: number): number {
  return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(textWidth(line) / Math.max(1, cols))), 0);
}
