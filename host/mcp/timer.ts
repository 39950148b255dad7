/**
 * A one-shot timer that can pause: the per-call timeout must not run while the user reads a confirmation
 * the server asked for (elicitation), however long that takes.
 */
export class PausableTimer {
  private handle?: NodeJS.Timeout;
  private remaining: number;
  private startedAt = 0;
  private pauses = 0;
  private done = false;

  constructor(
    ms: number,
    private readonly onFire: () => void,
  ) {
    this.remaining = ms;
    this.arm();
  }

  pause(): void {
    if (this.done || this.pauses++ > 0) return;
    clearTimeout(this.handle);
    this.remaining -= Date.now() - this.startedAt;
  }

  resume(): void {
    if (this.done || this.pauses === 0 || --this.pauses > 0) return;
    this.arm();
  }

  clear(): void {
    this.done = true;
    clearTimeout(this.handle);
  }

  private arm(): void {
    this.startedAt = Date.now();
    // setTimeout overflows above 2^31-1 ms and would fire at once.
    this.handle = setTimeout(
      () => {
        this.done = true;
        this.onFire();
      },
      Math.max(0, Math.min(this.remaining, 2 ** 31 - 1)),
    );
  }
}
