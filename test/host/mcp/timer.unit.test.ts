import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PausableTimer } from '../../../host/mcp/timer.js';

// Fake timers drive the clock: the timer's arithmetic is checked without waiting.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('PausableTimer', () => {
  it('fires once after its time', () => {
    const fired = vi.fn();
    new PausableTimer(1000, fired);
    vi.advanceTimersByTime(999);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('time spent paused (a confirmation being read) does not count', () => {
    const fired = vi.fn();
    const t = new PausableTimer(1000, fired);
    vi.advanceTimersByTime(600);
    t.pause();
    vi.advanceTimersByTime(60_000);
    expect(fired).not.toHaveBeenCalled();
    t.resume();
    vi.advanceTimersByTime(399);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('nested pauses: the clock stops at the first and runs again only when every pause is resumed', () => {
    const fired = vi.fn();
    const t = new PausableTimer(1000, fired);
    vi.advanceTimersByTime(300);
    t.pause();
    vi.advanceTimersByTime(200);
    t.pause();
    t.resume();
    vi.advanceTimersByTime(5000);
    expect(fired).not.toHaveBeenCalled();
    t.resume();
    vi.advanceTimersByTime(699);
    expect(fired).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fired).toHaveBeenCalledTimes(1);
  });

  it('a resume without a pause changes nothing; clear stops it for good', () => {
    const fired = vi.fn();
    const t = new PausableTimer(100, fired);
    t.resume();
    vi.advanceTimersByTime(50);
    t.clear();
    t.resume();
    vi.advanceTimersByTime(1000);
    expect(fired).not.toHaveBeenCalled();
  });

  it('a time beyond what setTimeout holds does not fire at once', () => {
    const fired = vi.fn();
    new PausableTimer(2 ** 40, fired);
    vi.advanceTimersByTime(1000);
    expect(fired).not.toHaveBeenCalled();
  });
});
