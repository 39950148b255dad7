import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONLY } from '../../helpers/run-host.js';
import { DENY_RM, policy, project, replay, shell } from './policy-replay.js';

describe('settings policyPaths and adminPolicyPaths (Gemini CLI 0.61 keys) load into the one policy', () => {
  it('a deny in a file named by policyPaths applies to a headless run, with no unknown-setting warning', async () => {
    const ws = project('v');
    const file = policy(ws, 'team.toml', DENY_RM);
    ws.settings({ ...ONLY('shell'), policyPaths: [file] });
    const { r, results } = await replay(ws, [shell('rm', 'rm v'), shell('echo', 'echo ok')], ['--yolo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unknown setting/);
    expect(results.rm?.status).toBe('error');
    expect(JSON.stringify(results.rm)).toContain('Tool execution denied by policy.');
    expect(existsSync(join(ws.cwd, 'v'))).toBe(true);
    expect(results.echo?.status).toBe('success');
  });

  it('adminPolicyPaths are the admin tier: their rule beats any user-tier rule', async () => {
    const ws = project('v', 'w');
    const user = policy(
      ws,
      'user.toml',
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "allow"\npriority = 999\n',
    );
    const admin = policy(ws, 'admin.toml', DENY_RM.replace('priority = 100', 'priority = 0'));
    ws.settings({ ...ONLY('shell'), policyPaths: [user], adminPolicyPaths: [admin] });
    const { r, results } = await replay(ws, [shell('rm', 'rm v')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/unknown setting/);
    expect(JSON.stringify(results.rm)).toContain('Tool execution denied by policy.');
    expect(existsSync(join(ws.cwd, 'v'))).toBe(true);
    // The user-tier allow alone lets the same call run.
    ws.settings({ ...ONLY('shell'), policyPaths: [user] });
    const alone = await replay(ws, [shell('rm', 'rm w')]);
    expect(alone.results.rm?.status, alone.r.stderr).toBe('success');
    expect(existsSync(join(ws.cwd, 'w'))).toBe(false);
  });

  it('a policyPaths entry that does not exist is reported at start, by name', async () => {
    const ws = project();
    const missing = join(ws.home, 'gone.toml');
    ws.settings({ ...ONLY('shell'), policyPaths: [missing] });
    const { r, results } = await replay(ws, [shell('echo', 'echo ok')], ['--yolo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${missing}: no such policy file or folder`);
    expect(results.echo?.status).toBe('success');
  });
});
