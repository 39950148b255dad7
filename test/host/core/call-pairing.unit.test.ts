import { describe, expect, it } from 'vitest';
import { CallPairing } from '../../../host/core/call-pairing.js';

describe('pairing a transcript’s responses with its calls', () => {
  it('calls without ids pair by name in order, whatever id the host gave the responses', () => {
    const p = new CallPairing<string>();
    p.call({ name: 'read' }, 'read-1');
    p.call({ name: 'shell' }, 'shell-1');
    p.call({ name: 'read' }, 'read-2');
    expect(p.response({ id: 'shell_17_1', name: 'shell' })).toBe('shell-1');
    expect(p.response({ id: 'read_17_0', name: 'read' })).toBe('read-1');
    expect(p.response({ id: 'read_17_2', name: 'read' })).toBe('read-2');
    expect(p.unanswered()).toEqual([]);
  });

  it('an id the model gave pairs exactly; an unanswered call is left over; a stray response answers nothing', () => {
    const p = new CallPairing<string>();
    p.call({ id: 'a', name: 'read' }, 'first');
    p.call({ id: 'b', name: 'read' }, 'second');
    expect(p.response({ id: 'b', name: 'read' })).toBe('second');
    expect(p.unanswered()).toEqual(['first']);
    expect(p.response({ id: 'a', name: 'read' })).toBe('first');
    expect(p.response({ id: 'z', name: 'read' })).toBeUndefined();
  });
});
