import { describe, expect, it } from 'vitest';
import { findInjections } from '../../../host/custom-commands/injections.js';

describe('findInjections', () => {
  it('finds each block with its trimmed content and its span in the prompt', () => {
    const text = 'Read @{ src/a.ts } and @{b.md}.';
    const found = findInjections(text, '@{', 'review');
    expect(found).toEqual([
      { content: 'src/a.ts', start: 5, end: 18 },
      { content: 'b.md', start: 23, end: 30 },
    ]);
    expect(found.map((f) => text.slice(f.start, f.end))).toEqual(['@{ src/a.ts }', '@{b.md}']);
  });

  it('keeps balanced braces inside a block (shell brace expansion, awk)', () => {
    const text = "!{awk '{print $1}' f} then !{echo {a,b}}";
    expect(findInjections(text, '!{', 'c').map((f) => f.content)).toEqual(["awk '{print $1}' f", 'echo {a,b}']);
  });

  it('looks only for the trigger it is given', () => {
    const text = '!{ls} @{x} {{args}}';
    expect(findInjections(text, '@{', 'c').map((f) => f.content)).toEqual(['x']);
    expect(findInjections(text, '!{', 'c').map((f) => f.content)).toEqual(['ls']);
    expect(findInjections('no blocks, {{args}} only', '!{', 'c')).toEqual([]);
  });

  it('reads an empty block as empty content', () => {
    expect(findInjections('a @{} b', '@{', 'c')).toEqual([{ content: '', start: 2, end: 5 }]);
  });

  it('refuses an unclosed block with Gemini CLI 0.61 message, naming the command and the index', () => {
    expect(() => findInjections('ok !{echo {x}', '!{', 'git:commit')).toThrow(
      "Invalid syntax in command 'git:commit': Unclosed injection starting at index 3 ('!{'). Ensure braces are balanced. Paths or commands with unbalanced braces are not supported directly.",
    );
    expect(() => findInjections('@{a} @{b', '@{', 'x')).toThrow(/index 5 \('@\{'\)/);
  });

  it('does not read a closing brace before the block as closing it', () => {
    expect(findInjections('} @{a}', '@{', 'c')).toEqual([{ content: 'a', start: 2, end: 6 }]);
  });
});
