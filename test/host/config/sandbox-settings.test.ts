import { describe, expect, it } from 'vitest';
import { filterUntrustedWorkspace } from '../../../host/config/untrusted-workspace.js';
import { sandboxChoice, serverSandbox } from '../../../host/config/sandbox.js';
import { resolveServers } from '../../../host/config/servers.js';

describe('sandbox settings', () => {
  it('flag, then GEMINI_SANDBOX, then tools.sandbox decide whether the shell is sandboxed', () => {
    expect(sandboxChoice({}).shell).toBe(false);
    expect(sandboxChoice({ tools: { sandbox: true } }).shell).toBe(true);
    expect(sandboxChoice({ tools: { sandbox: 'docker' } }).shell).toBe(true);
    const real = { GEMINI_SANDBOX: 'false' };
    expect(sandboxChoice({ tools: { sandbox: true } }, { env: real, processEnv: real }).shell).toBe(false);
    expect(sandboxChoice({}, { env: { GEMINI_SANDBOX: 'true' } }).shell).toBe(true);
    expect(sandboxChoice({}, { flag: true, env: { GEMINI_SANDBOX: '0' } }).shell).toBe(true);
    const c = sandboxChoice({ tools: { sandboxNetwork: ['a.org'] } }, { allowNet: ['b.org'] });
    expect(c.allowNet).toEqual(['a.org', 'b.org']);
  });

  it('GEMINI_SANDBOX from a .env file may turn the sandbox on, never off', () => {
    const fromFile = (v: string) => ({ env: { GEMINI_SANDBOX: v }, processEnv: {} });
    for (const v of ['0', 'false', 'off', ''])
      expect(sandboxChoice({ tools: { sandbox: true } }, fromFile(v)).shell).toBe(true);
    expect(sandboxChoice({}, fromFile('0')).shell).toBe(false);
    expect(sandboxChoice({}, fromFile('1')).shell).toBe(true);
  });

  it('an mcpServers entry: true is the workspace, an object names writes (relative to cwd) and hosts', () => {
    expect(serverSandbox({}, '/p', ['/p'])).toBeUndefined();
    expect(serverSandbox({ sandbox: true }, '/p', ['/p', '/q'])).toEqual({
      allowWrite: ['/p', '/q'],
      allowNet: [],
      secrets: [],
    });
    expect(serverSandbox({ sandbox: { allowWrite: ['out', '/abs'], allowNet: ['x.org'] } }, '/p', ['/p'])).toEqual({
      allowWrite: ['/p/out', '/abs'],
      allowNet: ['x.org'],
      secrets: [],
    });
  });

  it('an untrusted workspace may turn the sandbox on, not off, and may not widen it', () => {
    const off = filterUntrustedWorkspace({
      tools: { sandbox: false, sandboxAutoApprove: true, sandboxNetwork: ['evil.org'], sandboxSecrets: ['x'] },
    });
    expect(off.layer.tools).toEqual({ sandboxSecrets: ['x'] });
    expect(off.skipped).toEqual(
      expect.arrayContaining(['tools.sandbox (false)', 'tools.sandboxAutoApprove', 'tools.sandboxNetwork']),
    );
    expect(filterUntrustedWorkspace({ tools: { sandbox: true } }).layer.tools).toEqual({ sandbox: true });
    // Every other spelling of "off" (and an empty expansion) is dropped too.
    for (const v of ['off', 'no', '0', '', '${UNSET}'])
      expect(filterUntrustedWorkspace({ tools: { sandbox: v } }).layer.tools).toBeUndefined();
  });

  it('the built-in shell gets --sandbox, the allow-list and extra secrets; other servers do not', () => {
    const settings = { tools: { sandbox: true, sandboxNetwork: ['registry.npmjs.org'], sandboxSecrets: ['~/.vault'] } };
    const servers = resolveServers(settings, {
      cwd: '/p',
      projectTempDir: '/t',
      env: {},
      sandbox: sandboxChoice(settings, { allowNet: ['github.com'] }),
    });
    const shell = servers.find((s) => s.alias === 'shell')!;
    expect(shell.sandboxed).toBe(true);
    expect(shell.args?.slice(-5)).toEqual([
      '--sandbox',
      '--sandbox-allow-net',
      'registry.npmjs.org,github.com',
      '--sandbox-secret',
      '~/.vault',
    ]);
    expect(servers.find((s) => s.alias === 'filesystem')!.args).not.toContain('--sandbox');
  });
});
