import { describe, expect, it } from 'vitest';
import { compileUserPattern, tryUserPattern } from '../../host/user-pattern.js';

describe('user-written patterns run in RE2', () => {
  it('nested quantifiers against a failing input finish at once', () => {
    const p = compileUserPattern('(a+)+$');
    expect(p.test(`${'a'.repeat(40)}b`)).toBe(false);
    expect(p.test(`b${'a'.repeat(40)}`)).toBe(true);
    expect(compileUserPattern('((\\w+)+)+X').test('filesystem__write_file')).toBe(false);
  });

  it('JavaScript spellings Gemini CLI users write keep their meaning; matching is unanchored', () => {
    expect(compileUserPattern('\\u0000"command":"git ').test('{\0"command":"git log"\0}')).toBe(true);
    expect(compileUserPattern('\\0"command":"git ').test('{\0"command":"git log"\0}')).toBe(true);
    expect(compileUserPattern('"file_path":"[^"]*\\.env').test('{"file_path":"a/.env"}')).toBe(true);
    expect(compileUserPattern('^git$').test('git log')).toBe(false);
  });

  it('lookaround and backreferences are refused with a reason', () => {
    expect(() => compileUserPattern('rm (?!keep)')).toThrow(/no lookaround or backreferences/);
    expect(() => compileUserPattern('(a)\\1')).toThrow(/invalid escape sequence/);
    expect(tryUserPattern('(?<=x)y')).toBeUndefined();
  });
});
