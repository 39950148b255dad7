import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NoticeLimiter, SamplingStats } from '../../../host/mcp/sampling-stats.js';

describe('SamplingStats', () => {
  it('counts per server in first-asked order, tokens from usage (missing counts as 0)', () => {
    const s = new SamplingStats();
    s.asked('wiki');
    s.asked('crm');
    s.answered('wiki', { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 });
    s.asked('wiki');
    s.answered('wiki', undefined);
    s.denied('crm');
    s.failed('crm');
    expect(s.json()).toEqual({
      wiki: { requests: 2, approved: 2, denied: 0, failed: 0, promptTokens: 10, outputTokens: 5, totalTokens: 15 },
      crm: { requests: 1, approved: 0, denied: 1, failed: 1, promptTokens: 0, outputTokens: 0, totalTokens: 0 },
    });
    expect(s.entries().map(([k]) => k)).toEqual(['wiki', 'crm']);
  });

  it('entries are copies: changing one changes nothing inside', () => {
    const s = new SamplingStats();
    s.asked('a');
    s.entries()[0]![1].requests = 99;
    expect(s.json().a?.requests).toBe(1);
    expect(new SamplingStats().entries()).toEqual([]);
  });
});

describe('NoticeLimiter', () => {
  // Fake timers drive the window: counted repeats are said when it ends, without waiting.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the first notice at once; repeats in the window as one counted line when it ends', () => {
    const said: string[] = [];
    const l = new NoticeLimiter((m) => said.push(m), 1000);
    for (let i = 0; i < 4; i++) l.notice('crm', 'crm asked; denied', (n) => `crm asked ${n} more times; denied`);
    expect(said).toEqual(['crm asked; denied']);
    vi.advanceTimersByTime(1000);
    expect(said).toEqual(['crm asked; denied', 'crm asked 3 more times; denied']);
  });

  it('keys are counted apart; after the window the next notice is said at once again', () => {
    const said: string[] = [];
    const l = new NoticeLimiter((m) => said.push(m), 1000);
    l.notice('a', 'a1', (n) => `a+${n}`);
    l.notice('b', 'b1', (n) => `b+${n}`);
    l.notice('a', 'a1', (n) => `a+${n}`);
    vi.advanceTimersByTime(5000);
    l.notice('a', 'a again', (n) => `a+${n}`);
    expect(said).toEqual(['a1', 'b1', 'a+1', 'a again']);
  });

  it('flush says the pending counts when the run ends, once', () => {
    const said: string[] = [];
    const l = new NoticeLimiter((m) => said.push(m), 60_000);
    l.notice('a', 'first', (n) => `+${n}`);
    l.notice('a', 'first', (n) => `+${n}`);
    l.flush();
    l.flush();
    vi.advanceTimersByTime(60_000);
    expect(said).toEqual(['first', '+1']);
  });
});
