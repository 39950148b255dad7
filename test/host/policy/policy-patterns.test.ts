import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { policy, project, replay, shell } from './policy-replay.js';

const EVIL = `echo ${'a'.repeat(40)}b`;

describe('user-written regular expressions cannot hang the host', () => {
  it('commandRegex "(a+)+$" against 40 a and a b: the call is decided at once and runs', async () => {
    const ws = project();
    const file = policy(
      ws,
      'redos.toml',
      '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "echo (a+)+$"\ndecision = "deny"\npriority = 100\n',
    );
    // Before RE2 this run never ended: a backtracking RegExp needs ~2^40 steps for the one call.
    const { r, results } = await replay(ws, [shell('echo', EVIL)], ['--yolo', '--policy', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(results.echo?.status).toBe('success');
    expect(results.echo?.output).toContain(`${'a'.repeat(40)}b`);
  }, 20_000);

  it('argsPattern "(a+)+$" unanchored: every start position is still linear', async () => {
    const ws = project();
    const file = policy(
      ws,
      'redos.toml',
      '[[rule]]\ntoolName = "run_shell_command"\nargsPattern = "(a+)+$"\ndecision = "deny"\npriority = 100\n',
    );
    const { r, results } = await replay(ws, [shell('echo', EVIL)], ['--yolo', '--policy', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(results.echo?.status).toBe('success');
  }, 20_000);

  it('a pattern RE2 cannot run (lookaround) is refused at load with file and line, and so is its file', async () => {
    const ws = project('v');
    const file = policy(
      ws,
      'look.toml',
      '[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 1\n\n' +
        '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "rm (?!keep)"\ndecision = "deny"\npriority = 100\n',
    );
    const { r, results } = await replay(ws, [shell('rm', 'rm v')], ['--policy', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${file}:6: rule #2: invalid regular expression`);
    expect(r.stderr).toContain('no lookaround or backreferences');
    // The file's allow went with it: headless, the command needed a confirmation nobody could give.
    expect(JSON.stringify(results.rm)).toContain('requires user confirmation');
    expect(existsSync(join(ws.cwd, 'v'))).toBe(true);
  });
});
