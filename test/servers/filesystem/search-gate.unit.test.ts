import { describe, expect, it } from 'vitest';
import { createSearchGate } from '../../../servers/filesystem/lib/search-gate.js';

/** A search that holds its slot until released. */
function held() {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return { done, release };
}

describe('the search gate: a slot per core, first come first served', () => {
  it('a lone search runs with its own thread count; while others search, each gets one', async () => {
    const gate = createSearchGate(2);
    const signal = new AbortController().signal;
    expect(await gate.run(signal, async (t) => t)).toBeUndefined();
    const a = held();
    const first = gate.run(signal, async (t) => (await a.done, t));
    const second = gate.run(signal, async (t) => t);
    expect(await second).toBe(1);
    a.release();
    expect(await first).toBeUndefined();
  });

  it('never runs more than its slots at once, and starts the waiting ones in order', async () => {
    const gate = createSearchGate(2);
    const signal = new AbortController().signal;
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const jobs = Array.from({ length: 6 }, (_, i) => {
      const h = held();
      const p = gate.run(signal, async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await h.done;
        running--;
      });
      return { h, p };
    });
    for (const j of jobs) {
      await new Promise((r) => setImmediate(r));
      j.h.release();
      await j.p;
    }
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a search cancelled while it waits leaves the queue at once, and the others go on', async () => {
    const gate = createSearchGate(1);
    const a = held();
    const first = gate.run(new AbortController().signal, () => a.done);
    const ac = new AbortController();
    const waiting = gate.run(ac.signal, async () => 'ran');
    ac.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    const third = gate.run(new AbortController().signal, async () => 'third');
    a.release();
    await first;
    expect(await third).toBe('third');
  });

  it("lanes take turns: one session's twenty searches do not hold back another's one", async () => {
    const gate = createSearchGate(1);
    const signal = new AbortController().signal;
    const [busy, quiet, third] = [gate.lane(), gate.lane(), gate.lane()];
    const started: string[] = [];
    const holds = new Map<string, ReturnType<typeof held>>();
    const job = (lane: typeof busy, name: string) => {
      const h = held();
      holds.set(name, h);
      return lane.run(signal, async () => {
        started.push(name);
        await h.done;
      });
    };
    const all = Array.from({ length: 20 }, (_, i) => job(busy, `busy${i}`));
    all.push(job(quiet, 'quiet0'), job(quiet, 'quiet1'), job(third, 'third0'));
    for (let i = 0; i < all.length; i++) {
      await new Promise((r) => setImmediate(r));
      holds.get(started[i]!)!.release();
    }
    await Promise.all(all);
    // busy0 took the free slot; then the lanes alternate in the order they first waited.
    expect(started.slice(0, 7)).toEqual(['busy0', 'busy1', 'quiet0', 'third0', 'busy2', 'quiet1', 'busy3']);
    expect(started.slice(7)).toEqual(Array.from({ length: 16 }, (_, i) => `busy${i + 4}`));
  });

  it('a lane whose only waiter is cancelled gives up its turn', async () => {
    const gate = createSearchGate(1);
    const [a, b, c] = [gate.lane(), gate.lane(), gate.lane()];
    const first = held();
    const order: string[] = [];
    const running = a.run(new AbortController().signal, () => first.done);
    const ac = new AbortController();
    const cancelled = b.run(ac.signal, async () => order.push('b'));
    const later = c.run(new AbortController().signal, async () => order.push('c'));
    const again = a.run(new AbortController().signal, async () => order.push('a'));
    ac.abort(new Error('cancelled'));
    await expect(cancelled).rejects.toThrow('cancelled');
    first.release();
    await Promise.all([running, later, again]);
    expect(order).toEqual(['c', 'a']);
  });
});
