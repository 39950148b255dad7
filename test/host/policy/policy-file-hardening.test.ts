import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { DENY_RM, policy, project, replay, shell } from './policy-replay.js';

const REF_FS = resolve(
  import.meta.dirname,
  '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);

describe('a policy file fails closed', () => {
  it('a file with one invalid rule is rejected whole, with file and line: its allow does not outlive its deny', async () => {
    const ws = project('v');
    const file = policy(
      ws,
      'team.toml',
      `${DENY_RM.replace('priority = 100', 'priority = 1000')}\n[[rule]]\ntoolName = "run_shell_command"\ndecision = "allow"\npriority = 10\n`,
    );
    const { r, results } = await replay(ws, [shell('rm', 'rm v')], ['--policy', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(ws.cwd, 'v'))).toBe(true);
    expect(results.rm?.status).toBe('error');
    expect(JSON.stringify(results.rm)).toContain('requires user confirmation');
    expect(r.stderr).toContain(`${file}:1: rule #1: priority`);
    expect(r.stderr).toContain('the whole file is rejected');
  });

  it('a misspelt condition is an invalid rule, not an allow for every call of the tool', async () => {
    const ws = project('v');
    const file = policy(
      ws,
      'typo.toml',
      '[[rule]]\ntoolName = "run_shell_command"\ncomandPrefix = "git status"\ndecision = "allow"\npriority = 10\n',
    );
    const { r, results } = await replay(ws, [shell('rm', 'rm v')], ['--policy', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `${file}:1: rule #1: rule: unknown field "comandPrefix" (did you mean "commandPrefix"?)`,
    );
    expect(JSON.stringify(results.rm)).toContain('requires user confirmation');
    expect(existsSync(join(ws.cwd, 'v'))).toBe(true);
  });

  it('a symlinked policy file in ~/.gemini/policies is followed: its deny applies', async () => {
    const ws = project('v');
    const target = policy(ws, 'shared.toml', DENY_RM);
    mkdirSync(join(ws.home, '.gemini', 'policies'), { recursive: true });
    symlinkSync(target, join(ws.home, '.gemini', 'policies', 'team.toml'));
    const { r, results } = await replay(ws, [shell('rm', 'rm v')], ['--yolo']);
    expect(r.code, r.stderr).toBe(0);
    expect(results.rm?.status).toBe('error');
    expect(JSON.stringify(results.rm)).toContain('Tool execution denied by policy.');
    expect(existsSync(join(ws.cwd, 'v'))).toBe(true);
  });

  it('a missing --policy path is an error that names it, and nothing runs', async () => {
    const ws = project('v');
    const missing = join(ws.home, 'no-such.toml');
    const { r, results } = await replay(ws, [shell('rm', 'rm v')], ['--yolo', '--policy', missing]);
    expect(r.code).toBe(42);
    // stream-json reports the error on stdout, as a result event.
    expect(r.stdout).toContain(`--policy ${missing}: no such policy file or folder.`);
    expect(results).toEqual({});
    expect(existsSync(join(ws.cwd, 'v'))).toBe(true);
  });

  it('mcpName names a server as written in mcpServers, dots and all', async () => {
    const ws = workspace();
    ws.settings({
      ...ONLY(),
      mcpServers: { 'my.server': { command: process.execPath, args: [REF_FS, ws.cwd], trust: true } },
    });
    const file = policy(ws, 'mcp.toml', '[[rule]]\nmcpName = "my.server"\ndecision = "deny"\npriority = 100\n');
    const target = join(ws.cwd, 'out.txt');
    const call = { functionCall: { id: 'w', name: 'my_server__write_file', args: { path: target, content: 'x' } } };
    const { r, results } = await replay(ws, [call], ['--policy', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(results.w?.status).toBe('error');
    expect(JSON.stringify(results.w)).toContain('Tool execution denied by policy.');
    expect(existsSync(target)).toBe(false);
  });
});
