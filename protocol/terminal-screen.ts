import { lazyRequire } from './lazy-require.js';
import type { Terminal as XTerm } from '@xterm/headless';

/** Lines kept above the screen: the text a command printed before its last screenful. */
const SCROLLBACK = 5000;

/**
 * A terminal emulator fed with a pseudo-terminal's bytes, so that `\r` progress bars, cursor moves and a
 * full-screen program read as what a person saw, not as the escape sequences that drew it. Used by the shell
 * server (the text the model gets) and the chat (the live screen on a tool card). @xterm/headless is loaded
 * on first use: only a command run in a terminal needs it.
 */
export class TerminalScreen {
  private readonly term: XTerm;
  private pending: Promise<void> = Promise.resolve();

  constructor(cols: number, rows: number) {
    const { Terminal } = lazyRequire('@xterm/headless') as typeof import('@xterm/headless');
    this.term = new Terminal({ cols, rows, scrollback: SCROLLBACK, allowProposedApi: true });
  }

  /** Feeds bytes; the emulator parses them asynchronously, `settled()` waits until it has. */
  write(data: string): void {
    this.pending = new Promise((resolve) => this.term.write(data, resolve));
  }

  resize(cols: number, rows: number): void {
    this.term.resize(cols, rows);
  }

  /** Resolves once every byte written so far has been parsed. */
  settled(): Promise<void> {
    return this.pending;
  }

  /** The rows of the visible screen as text (trailing blanks of each row removed). */
  screenRows(): string[] {
    const buf = this.term.buffer.active;
    const rows: string[] = [];
    for (let i = 0; i < this.term.rows; i++) rows.push(buf.getLine(buf.viewportY + i)?.translateToString(true) ?? '');
    return rows;
  }

  /**
   * Everything printed, scrollback and screen, as plain text: a row the terminal wrapped joins the one before
   * it, and blank rows at the end go.
   */
  text(): string {
    const buf = this.term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buf.length; i++) {
      const line = buf.getLine(i);
      if (!line) continue;
      const text = line.translateToString(true);
      if (line.isWrapped && lines.length) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return lines.join('\n').replace(/\s+$/, '');
  }

  /** Whether lines scrolled off the top of the scrollback: `text()` no longer holds everything printed. */
  overflowed(): boolean {
    return this.term.buffer.normal.length >= SCROLLBACK + this.term.rows;
  }

  dispose(): void {
    this.term.dispose();
  }
}
