import { describe, expect, it } from 'vitest';
import { unwrap } from '../../../protocol/bash/wrappers.js';
import { literal, type Word } from '../../../protocol/bash/words.js';

const words = (...ws: string[]): Word[] => ws.map(literal);
const values = (ws: Word[][]) => ws.map((w) => w.map((x) => x.value));

describe('unwrap: commands that run other commands', () => {
  it('an ordinary command wraps nothing', () => {
    expect(unwrap(words('ls', '-la'))).toBeNull();
    expect(unwrap([])).toBeNull();
  });

  it('transparent wrappers drop out: the inner command is the root', () => {
    const r = unwrap(words('timeout', '5', 'git', 'status'))!;
    expect(r.keepWrapper).toBe(false);
    expect(values(r.commands)).toEqual([['git', 'status']]);
    const env = unwrap(words('env', 'A=1', 'npm', 'test'))!;
    expect(values(env.commands)).toEqual([['npm', 'test']]);
    expect(env.assignments.map((w) => w.value)).toEqual(['A=1']);
  });

  it('significant wrappers stay roots of their own', () => {
    const r = unwrap(words('sudo', 'rm', '-rf', '/tmp/x'))!;
    expect(r.keepWrapper).toBe(true);
    expect(values(r.commands)).toEqual([['rm', '-rf', '/tmp/x']]);
  });

  it('shell source (bash -c, eval) is handed back to be parsed again', () => {
    expect(unwrap(words('bash', '-c', 'echo hi; rm x'))!.scripts).toEqual(['echo hi; rm x']);
    expect(unwrap(words('eval', 'rm', 'x'))!.scripts.join(' ')).toContain('rm x');
  });

  it('a path to the wrapper is the wrapper', () => {
    expect(values(unwrap(words('/usr/bin/nice', '-n', '5', 'make'))!.commands)).toEqual([['make']]);
  });
});
