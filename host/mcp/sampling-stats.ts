/**
 * What each server spent through sampling: a trusted server's requests run without a prompt, so without
 * these counters its tokens would be spent invisibly. Shown by the chat's /stats and in headless JSON stats.
 */
export interface ServerSampling {
  requests: number;
  approved: number;
  denied: number;
  failed: number;
  promptTokens: number;
  outputTokens: number;
  totalTokens: number;
}

export class SamplingStats {
  private readonly byServer = new Map<string, ServerSampling>();

  private of(alias: string): ServerSampling {
    let s = this.byServer.get(alias);
    if (!s) {
      s = { requests: 0, approved: 0, denied: 0, failed: 0, promptTokens: 0, outputTokens: 0, totalTokens: 0 };
      this.byServer.set(alias, s);
    }
    return s;
  }

  asked(alias: string): void {
    this.of(alias).requests++;
  }

  denied(alias: string): void {
    this.of(alias).denied++;
  }

  failed(alias: string): void {
    this.of(alias).failed++;
  }

  answered(
    alias: string,
    usage: { promptTokenCount?: number; candidatesTokenCount?: number; totalTokenCount?: number } | undefined,
  ): void {
    const s = this.of(alias);
    s.approved++;
    s.promptTokens += usage?.promptTokenCount ?? 0;
    s.outputTokens += usage?.candidatesTokenCount ?? 0;
    s.totalTokens += usage?.totalTokenCount ?? 0;
  }

  /** Per server, in the order they first asked; empty when no server asked. */
  entries(): [string, ServerSampling][] {
    return [...this.byServer].map(([k, v]) => [k, { ...v }]);
  }

  json(): Record<string, ServerSampling> {
    return Object.fromEntries(this.entries());
  }
}

/**
 * One line per server for a notice that repeats (a server asking again and again while being denied):
 * the first is said at once; repeats within `windowMs` are counted and said as one line with the count
 * when the window ends (or at flush, when the run ends).
 */
export class NoticeLimiter {
  private readonly pending = new Map<
    string,
    { count: number; last: number; timer?: NodeJS.Timeout; repeated: (count: number) => string }
  >();

  constructor(
    private readonly say: (message: string) => void,
    private readonly windowMs = 5_000,
  ) {}

  notice(key: string, first: string, repeated: (count: number) => string): void {
    const now = Date.now();
    const p = this.pending.get(key);
    if (p && now - p.last < this.windowMs) {
      p.count++;
      p.repeated = repeated;
      if (!p.timer) {
        p.timer = setTimeout(() => this.settle(key), this.windowMs - (now - p.last));
        p.timer.unref?.();
      }
      return;
    }
    if (p) this.settle(key);
    this.pending.set(key, { count: 0, last: now, repeated });
    this.say(first);
  }

  private settle(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    if (p.timer) clearTimeout(p.timer);
    p.timer = undefined;
    if (p.count) this.say(p.repeated(p.count));
    p.count = 0;
  }

  /** Says every count still pending (the run is ending). */
  flush(): void {
    for (const key of this.pending.keys()) this.settle(key);
  }
}
