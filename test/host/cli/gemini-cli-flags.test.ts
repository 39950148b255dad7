import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace, type Workspace } from '../../helpers/run-host.js';

/**
 * Gemini CLI 0.61 flags that used to be "Unknown option": `--admin-policy` loads policy files in the admin
 * tier (as 0.61 does, and is ignored with 0.61's warning when the system policies folder has files); the
 * ones we do not have are refused with what to do instead (exit 42) before any request.
 */
const ALLOW_WRITE = '[[rule]]\ntoolName = "write_file"\ndecision = "allow"\npriority = 999\n';
const DENY_WRITE = '[[rule]]\ntoolName = "write_file"\ndecision = "deny"\npriority = 1\n';

function setUp(): { ws: Workspace; env: Record<string, string>; systemPolicies: string } {
  const ws = workspace();
  ws.settings({ ...ONLY('filesystem'), security: { folderTrust: { enabled: false } } });
  writeFileSync(join(ws.home, 'user.toml'), ALLOW_WRITE);
  writeFileSync(join(ws.home, 'admin.toml'), DENY_WRITE);
  const system = join(ws.home, 'system');
  mkdirSync(join(system, 'policies'), { recursive: true });
  return {
    ws,
    env: { GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(system, 'settings.json') },
    systemPolicies: join(system, 'policies'),
  };
}

const statuses = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'tool_result')
    .map((e) => e.status);

describe('Gemini CLI 0.61 flags', () => {
  const endpoint = scriptedEndpoints();
  const write = () => reply.calls({ name: 'write_file', args: { file_path: 'out.txt', content: 'hi\n' } });
  const args = ['-p', 'write it', '-o', 'stream-json', '--policy', 'user.toml', '--admin-policy', 'admin.toml'];

  it('--admin-policy rules are the admin tier: its deny beats a user-tier allow of any priority', async () => {
    const { ws, env } = setUp();
    const ep = await endpoint(write(), reply.text('Refused.'));
    const r = await runHost(
      args.map((a) => (a.endsWith('.toml') ? join(ws.home, a) : a)),
      { ws, url: ep.url, env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(statuses(r.stdout)).toEqual(['error']);
    expect(existsSync(join(ws.cwd, 'out.txt'))).toBe(false);
  });

  it('is ignored, with Gemini CLI 0.61 warning, when the system policies folder has policy files', async () => {
    const { ws, env, systemPolicies } = setUp();
    writeFileSync(join(systemPolicies, 'site.toml'), '[[rule]]\ntoolName = "glob"\ndecision = "allow"\npriority = 1\n');
    const ep = await endpoint(write(), reply.text('Written.'));
    const r = await runHost(
      args.map((a) => (a.endsWith('.toml') ? join(ws.home, a) : a)),
      { ws, url: ep.url, env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `Security Warning: Ignoring --admin-policy because system policies are already defined in ${systemPolicies}`,
    );
    expect(statuses(r.stdout)).toEqual(['success']);
    expect(readFileSync(join(ws.cwd, 'out.txt'), 'utf8')).toBe('hi\n');
  });

  it.each([
    [
      ['--session-file', 'saved.json', '-p', 'hi'],
      '--session-file is not supported: sessions are recorded per project',
    ],
    [['--screen-reader', '-p', 'hi'], '--screen-reader is not supported'],
    [['--raw-output', '--accept-raw-output-risk', '-p', 'hi'], '--raw-output is not supported'],
  ])('%j is refused with what to do instead (exit 42), before any request', async (flags, message) => {
    const { ws } = setUp();
    const ep = await endpoint(reply.text('should not be asked'));
    const r = await runHost(flags, { ws, url: ep.url });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(ep.requests).toHaveLength(0);
  });
});
