import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { requestSignal, withRequestSignal } from '../../../host/core/request-signal.js';

describe('requestSignal', () => {
  it('aborts with the parent, with its reason', () => {
    const parent = new AbortController();
    const { signal } = requestSignal(parent.signal);
    expect(signal.aborted).toBe(false);
    parent.abort(new Error('turn cancelled'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('turn cancelled');
  });

  it('is born aborted when the parent already is', () => {
    const parent = new AbortController();
    parent.abort('gone');
    expect(requestSignal(parent.signal).signal.reason).toBe('gone');
  });

  it('dispose lets go of the parent: a long-lived signal does not collect listeners', () => {
    const parent = new AbortController();
    for (let i = 0; i < 50; i++) requestSignal(parent.signal).dispose();
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
    const { signal, dispose } = requestSignal(parent.signal);
    dispose();
    parent.abort();
    expect(signal.aborted).toBe(false);
  });
});

describe('withRequestSignal', () => {
  it('passes a child signal and disposes it when the work settles, success or failure', async () => {
    const parent = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    expect(await withRequestSignal(parent.signal, async (s) => (seen.push(s), 'ok'))).toBe('ok');
    await expect(withRequestSignal(parent.signal, async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(seen[0]).not.toBe(parent.signal);
    expect(getEventListeners(parent.signal, 'abort')).toHaveLength(0);
  });

  it('without a parent, no signal', async () => {
    expect(await withRequestSignal(undefined, async (s) => s)).toBeUndefined();
  });
});
