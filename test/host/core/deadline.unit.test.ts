import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadline } from '../../../host/core/deadline.js';

describe("a subagent's deadline", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('fires after its time', () => {
    const d = new Deadline(1000);
    vi.advanceTimersByTime(999);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as Error).message).toBe('Agent timed out.');
  });

  it('stands still while a call waits for the user, and runs on from where it stopped', () => {
    const d = new Deadline(1000);
    vi.advanceTimersByTime(600);
    d.setWaiting('a', true);
    d.setWaiting('b', true);
    vi.advanceTimersByTime(10_000);
    d.setWaiting('a', false);
    vi.advanceTimersByTime(10_000);
    expect(d.signal.aborted).toBe(false);
    d.setWaiting('b', false);
    vi.advanceTimersByTime(399);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.signal.aborted).toBe(true);
  });

  it('is stopped for good by dispose', () => {
    const d = new Deadline(1000);
    d.dispose();
    vi.advanceTimersByTime(5000);
    expect(d.signal.aborted).toBe(false);
  });
});
