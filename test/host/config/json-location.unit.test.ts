import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJsonc } from '../../../host/config/json-location.js';

function where(text: string): { line: number; column: number; reason: string } {
  try {
    parseJsonc(text);
  } catch (err) {
    if (err instanceof JsonSyntaxError) return { line: err.line, column: err.column, reason: err.reason };
  }
  throw new Error('parsed');
}

describe('settings JSON syntax errors say line and column', () => {
  it('points at the offending character, comments included in the count', () => {
    expect(where('{\n  "a": 1,\n}')).toMatchObject({ line: 3, column: 1 });
    expect(where('{\n  // note\n  "a": 1 "b": 2\n}')).toMatchObject({ line: 3, column: 10 });
    expect(where('{ /* x */ "a": tru }')).toMatchObject({ line: 1 });
  });

  it('input that ends early names the end of the file', () => {
    const w = where('{\n  "mcpServers": {');
    expect(w.line).toBe(2);
    expect(w.reason).toContain('ends too early');
  });

  it('comments still parse', () => {
    expect(parseJsonc('{ // a\n "a": "http://x" /* b */ }')).toEqual({ a: 'http://x' });
  });
});
