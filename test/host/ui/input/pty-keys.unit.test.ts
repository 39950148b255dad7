import { describe, expect, it } from 'vitest';
import { keyBytes } from '../../../../host/ui/input/pty-keys.js';

/** Keys typed into a command's terminal: the bytes the terminal sent, else the usual encoding of the key. */
describe('keyBytes', () => {
  it('passes on what the terminal sent (function keys, Alt combinations, arrows in any mode)', () => {
    expect(keyBytes(undefined, { name: 'f5', sequence: '\x1b[15~' })).toBe('\x1b[15~');
    expect(keyBytes('x', { name: 'x', meta: true, sequence: '\x1bx' })).toBe('\x1bx');
    expect(keyBytes(undefined, { name: 'up', sequence: '\x1bOA' })).toBe('\x1bOA');
  });

  it('without a sequence: Enter, Backspace, Esc, arrows, Ctrl+letter, plain characters', () => {
    expect(keyBytes('\r', { name: 'return' })).toBe('\r');
    expect(keyBytes(undefined, { name: 'backspace' })).toBe('\x7f');
    expect(keyBytes(undefined, { name: 'escape' })).toBe('\x1b');
    expect(keyBytes(undefined, { name: 'left' })).toBe('\x1b[D');
    expect(keyBytes(undefined, { name: 'c', ctrl: true })).toBe('\x03');
    expect(keyBytes('é', { name: undefined })).toBe('é');
  });
});
