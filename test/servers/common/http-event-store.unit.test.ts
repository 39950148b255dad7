import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../../servers/common/http-event-store.js';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { n } });

async function replay(store: SessionEventStore, after: string): Promise<{ stream: string; got: [string, unknown][] }> {
  const got: [string, unknown][] = [];
  const stream = await store.replayEventsAfter(after, {
    send: async (id, m) => {
      got.push([id, (m as { params?: { n?: number } }).params?.n]);
    },
  });
  return { stream, got };
}

describe('SessionEventStore', () => {
  it('replays the events of the same stream after the given id, once each, skipping priming events', async () => {
    const store = new SessionEventStore();
    const prime = await store.storeEvent('a', {} as JSONRPCMessage);
    const a1 = await store.storeEvent('a', note(1));
    await store.storeEvent('b', note(100));
    await store.storeEvent('a', note(2));
    await store.storeEvent('a', note(3));
    expect(store.streamOf(a1)).toBe('a');
    expect((await replay(store, a1)).got.map(([, n]) => n)).toEqual([2, 3]);
    const all = await replay(store, prime);
    expect(all.stream).toBe('a');
    expect(all.got.map(([, n]) => n)).toEqual([1, 2, 3]);
    expect(new Set(all.got.map(([id]) => id)).size).toBe(3);
  });

  it('refuses ids it never minted, from another store, or malformed', async () => {
    const store = new SessionEventStore();
    await store.storeEvent('a', note(1));
    for (const bad of ['', 'a', 'a_0', 'a_2', 'a_x', '_1', 'b_1', 'a_1e3'])
      expect(store.streamOf(bad), bad).toBeUndefined();
    await expect(replay(store, 'a_9')).rejects.toThrow(/cannot resume/);
  });

  it('is bounded by count: the oldest go, and a resume from before a dropped event is refused, not gapped', async () => {
    const store = new SessionEventStore({ maxEvents: 3, maxBytes: 1 << 20 });
    const ids: string[] = [];
    for (let n = 1; n <= 5; n++) ids.push(await store.storeEvent('a', note(n)));
    expect(store.size.events).toBe(3);
    // Events 1 and 2 are gone: resuming after 1 would skip 2.
    expect(store.streamOf(ids[0])).toBeUndefined();
    // Resuming after 2 (the newest dropped) misses nothing: 3, 4 and 5 are held.
    expect((await replay(store, ids[1])).got.map(([, n]) => n)).toEqual([3, 4, 5]);
  });

  it('is bounded by bytes, and forgets a stream whose events are all gone', async () => {
    const big = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'x', params: { n, pad: 'x'.repeat(1000) } });
    const store = new SessionEventStore({ maxEvents: 1000, maxBytes: 3500 });
    const first = await store.storeEvent('old', big(0));
    for (let n = 1; n <= 10; n++) await store.storeEvent('new', big(n));
    expect(store.size.bytes).toBeLessThanOrEqual(3500);
    expect(store.size.events).toBe(3);
    expect(store.streamOf(first)).toBeUndefined();
  });

  it('keeps no event larger than the byte bound, and refuses to resume from before it', async () => {
    const store = new SessionEventStore({ maxEvents: 10, maxBytes: 200 });
    const small = await store.storeEvent('a', note(1));
    await store.storeEvent('a', { jsonrpc: '2.0', method: 'x', params: { pad: 'x'.repeat(500) } });
    expect(store.size).toEqual({ events: 0, bytes: 0 });
    expect(store.streamOf(small)).toBeUndefined();
    await expect(replay(store, small)).rejects.toThrow(/cannot resume/);
  });
});
