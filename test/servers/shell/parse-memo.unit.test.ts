import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../../protocol/bash/command-model.js';
import { createParseMemo } from '../../../servers/shell/parse-memo.js';

describe('parse memo', () => {
  it('answers exactly as parseCommand, for repeated, failing and evicted commands', async () => {
    const parse = createParseMemo(2);
    const commands = ['git status', 'echo $(id)', 'if then', 'git status', 'ls | wc -l', 'echo $(id)', 'git status'];
    for (const c of commands) expect(await parse(c)).toEqual(await parseCommand(c));
  });

  it('returns the kept result for a repeat and parses again after eviction', async () => {
    const parse = createParseMemo(1);
    const first = await parse('npm test');
    expect(await parse('npm test')).toBe(first);
    await parse('npm run build');
    const again = await parse('npm test');
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
