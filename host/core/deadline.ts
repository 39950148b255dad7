/**
 * A time limit that can stand still: a subagent's clock stops while one of its calls waits for the user's
 * answer (as Gemini CLI 0.61's does), so a slow answer to a dialog never times the agent out.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private timer?: NodeJS.Timeout;
  private left: number;
  private since = 0;
  private readonly waiting = new Set<string>();

  constructor(
    ms: number,
    private readonly reason = 'Agent timed out.',
  ) {
    this.left = ms;
    this.start();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A call started (`true`) or stopped (`false`) waiting for the user; the clock runs while none waits. */
  setWaiting(id: string, waiting: boolean): void {
    const before = this.waiting.size;
    if (waiting) this.waiting.add(id);
    else this.waiting.delete(id);
    if (before === 0 && this.waiting.size > 0) this.pause();
    else if (before > 0 && this.waiting.size === 0) this.start();
  }

  dispose(): void {
    clearTimeout(this.timer);
  }

  private start(): void {
    if (this.controller.signal.aborted) return;
    this.since = Date.now();
    this.timer = setTimeout(() => this.controller.abort(new Error(this.reason)), Math.max(0, this.left));
  }

  private pause(): void {
    clearTimeout(this.timer);
    this.left -= Date.now() - this.since;
  }
}
