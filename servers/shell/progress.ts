import stripAnsi from 'strip-ansi';

/** Longest progress message; a flood of output is summarised by its last lines. */
const MAX_MESSAGE_CHARS = 4000;

/**
 * Turns output chunks into complete lines sent at most once per `intervalMs` (the first batch
 * goes out at once), so a chatty command costs a bounded number of notifications.
 */
export function createLineStreamer(send: (text: string) => void, intervalMs: number) {
  let partial = '';
  let pending: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let lastSent = 0;

  const flush = () => {
    timer = undefined;
    if (pending.length === 0) return;
    let text = stripAnsi(pending.join('\n'));
    pending = [];
    if (text.length > MAX_MESSAGE_CHARS) text = text.slice(text.length - MAX_MESSAGE_CHARS);
    lastSent = Date.now();
    send(text);
  };

  return {
    push(text: string): void {
      const lines = (partial + text).split(/\r?\n/);
      partial = lines.pop() ?? '';
      if (partial.length > MAX_MESSAGE_CHARS) {
        lines.push(partial);
        partial = '';
      }
      if (lines.length === 0) return;
      pending.push(...lines);
      if (pending.length > 1000) pending = pending.slice(-1000);
      if (timer) return;
      const wait = lastSent + intervalMs - Date.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    /** Drops anything not yet sent: the result carries the full output anyway. */
    stop(): void {
      clearTimeout(timer);
      timer = undefined;
      pending = [];
    },
  };
}

/** Raw terminal bytes held for one notification at most; a flood keeps its end (the screen as it is now). */
const MAX_TERMINAL_CHUNK = 256 * 1024;

/**
 * Batches a pseudo-terminal's output into notifications at most once per `intervalMs` (the first at once):
 * the raw bytes for a client that renders a screen, and their plain text as the message for everyone.
 * `flush()` sends what is held at once (before the result, so the screen is complete).
 */
export function createTerminalStreamer(send: (text: string, pid: number, data: string) => void, intervalMs: number) {
  let pending = '';
  let pid = 0;
  let timer: NodeJS.Timeout | undefined;
  let lastSent = 0;

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const data = pending;
    pending = '';
    lastSent = Date.now();
    const text = stripAnsi(data);
    send(text.length > MAX_MESSAGE_CHARS ? text.slice(text.length - MAX_MESSAGE_CHARS) : text, pid, data);
  };

  return {
    push(from: number, data: string): void {
      pid = from;
      pending += data;
      if (pending.length > MAX_TERMINAL_CHUNK) pending = pending.slice(pending.length - MAX_TERMINAL_CHUNK);
      if (timer) return;
      const wait = lastSent + intervalMs - Date.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    flush,
  };
}
