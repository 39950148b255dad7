import { describe, expect, it } from 'vitest';
import { withDeadline } from '../../../servers/common/deadline.js';

const waitAbort = (s: AbortSignal) =>
  new Promise<unknown>((r) => s.addEventListener('abort', () => r(s.reason), { once: true }));

describe('withDeadline', () => {
  it('aborts the work signal when the time is up and says so', async () => {
    const reason = await withDeadline(new AbortController().signal, 20, async (signal, expired) => {
      const r = await waitAbort(signal);
      expect(expired()).toBe(true);
      return r;
    });
    expect((reason as Error).name).toBe('TimeoutError');
  });

  it('passes the parent abort through and is not a timeout', async () => {
    const parent = new AbortController();
    setTimeout(() => parent.abort(new Error('user')), 10);
    const reason = await withDeadline(parent.signal, 10_000, async (signal, expired) => {
      const r = await waitAbort(signal);
      expect(expired()).toBe(false);
      return r;
    });
    expect((reason as Error).message).toBe('user');
  });

  it('fires even under garbage-collection pressure while nothing else references the signal', async () => {
    const fired = await withDeadline(new AbortController().signal, 50, (signal) => {
      const done = waitAbort(signal).then(() => true);
      // Allocate enough to trigger several collections before the timer is due.
      let junk: unknown[] = [];
      for (let i = 0; i < 200; i++) junk.push(new Array(10_000).fill(i));
      junk = [];
      return done;
    });
    expect(fired).toBe(true);
  });
});
