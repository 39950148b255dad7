import type { HostLogger } from '../../log.js';
import type { Palette } from '../text/palette.js';
import { safeBlock } from '../../safe-text.js';

export type DebugLevel = 'debug' | 'info' | 'warn' | 'error';

export interface DebugLine {
  at: number;
  level: DebugLevel;
  text: string;
}

/** Lines kept; older ones are dropped so a chatty server cannot grow the chat's memory. */
const MAX_LINES = 500;
/** Lines F12 and a bare `/debug` show. */
export const SHOWN_LINES = 40;

/**
 * The chat's debug log: the host's log lines and servers' log messages, which a full-screen UI cannot
 * write to stderr. Kept in memory; F12 or `/debug` shows them; warnings and errors not yet seen are
 * counted on the status line so a server complaining is noticed.
 */
export class DebugLog implements HostLogger {
  private lines: DebugLine[] = [];
  /** Warnings and errors that came in since the log was last shown. */
  unseen = 0;
  /** Called after every line (the status line's count). */
  onChange?: () => void;

  debug = (msg: string): void => this.add('debug', msg);
  info = (msg: string): void => this.add('info', msg);
  warn = (msg: string): void => this.add('warn', msg);
  error = (msg: string): void => this.add('error', msg);

  recent(n: number): DebugLine[] {
    return this.lines.slice(-n);
  }

  get size(): number {
    return this.lines.length;
  }

  markSeen(): void {
    this.unseen = 0;
    this.onChange?.();
  }

  clear(): void {
    this.lines = [];
    this.markSeen();
  }

  private add(level: DebugLevel, text: string): void {
    // Log lines quote servers (stderr, errors, messages): made safe before the view colours them.
    this.lines.push({ at: Date.now(), level, text: safeBlock(text) });
    if (this.lines.length > MAX_LINES) this.lines.splice(0, this.lines.length - MAX_LINES);
    if (level === 'warn' || level === 'error') this.unseen++;
    this.onChange?.();
  }
}

/** The log's last `n` lines for the conversation, newest last, and marks them seen. */
export function showDebugLog(log: DebugLog, p: Palette, n = SHOWN_LINES): string {
  const lines = log.recent(n);
  log.markSeen();
  if (lines.length === 0) return p.gray('Debug log: nothing yet (server log messages and host diagnostics land here).');
  const colour = { debug: p.gray, info: (s: string) => s, warn: p.yellow, error: p.red };
  const body = lines.map((l) => {
    const time = new Date(l.at).toISOString().slice(11, 19);
    return `${p.gray(time)} ${colour[l.level](`${l.level.padEnd(5)} ${l.text}`)}`;
  });
  const head = p.bold(`Debug log (last ${lines.length} of ${log.size})`);
  return [head, ...body, p.gray('/debug N shows more, /debug clear empties it.')].join('\n');
}
