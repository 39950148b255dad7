import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DENY_RM, policy, project, replay, shell } from './policy-replay.js';

const DODGES = {
  variable: 'X=rm; $X v1',
  ifs: 'rm${IFS}v2',
  envSplit: "env -S 'rm v3'",
  bashC: `C='rm v4'; bash -c "$C"`,
  pipeToShell: "echo 'rm v5' | sh",
};

describe('a deny on a command cannot be dodged by naming it at run time', () => {
  it('under --yolo with a deny on rm, a program known only when it runs is denied, and the reason says so', async () => {
    const ws = project('v1', 'v2', 'v3', 'v4', 'v5');
    const file = policy(ws, 'no-rm.toml', DENY_RM);
    const calls = [...Object.entries(DODGES).map(([id, cmd]) => shell(id, cmd)), shell('echo', 'echo still runs')];
    const { r, results } = await replay(ws, calls, ['--yolo', '--policy', file]);
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['v1', 'v2', 'v3', 'v4', 'v5']) expect(existsSync(join(ws.cwd, f)), f).toBe(true);
    for (const id of Object.keys(DODGES)) {
      expect(results[id]?.status, id).toBe('error');
      expect(JSON.stringify(results[id]), id).toContain('is known only when it runs');
    }
    // Commands whose program is written out still run under yolo.
    expect(results.echo?.status).toBe('success');
    expect(results.echo?.output).toContain('still runs');
  });

  it('without any command rule yolo runs such a command as before', async () => {
    const ws = project('v1');
    const { r, results } = await replay(ws, [shell('variable', DODGES.variable)], ['--yolo']);
    expect(r.code, r.stderr).toBe(0);
    expect(results.variable?.status).toBe('success');
    expect(existsSync(join(ws.cwd, 'v1'))).toBe(false);
  });
});
