import { DEFERRED_CA_CERTS } from '../../../protocol/deferred-ca-certs.js';
import { describe, expect, it } from 'vitest';
import { builtInEntry, withRootArgs } from '../../../host/config/builtin-servers.js';
import { resolveServerSet, resolveServers } from '../../../host/config/servers.js';
import { DISCOVERY_ALIAS, validateAlias } from '../../../host/config/server-names.js';
import { sanitizedEnv, looksSecret } from '../../../host/config/env.js';

describe('resolveServers', () => {
  const base = { cwd: '/w/proj', roots: ['/w/proj', '/w/other'], projectTempDir: '/w/tmp' };

  it('new workspace directories become new --root arguments of the built-ins only (MCP roots cannot widen them)', () => {
    const servers = resolveServers(
      { mcpServers: { ext: { command: 'x', args: ['--root', '/a'] } } },
      { ...base, env: {} },
    );
    const memory = servers.find((s) => s.alias === 'memory')!;
    const moved = withRootArgs(memory, ['/w/proj', '/w/other', '/w/added']);
    expect(moved.args).toEqual([
      builtInEntry('memory'),
      '--root',
      '/w/proj',
      '--root',
      '/w/other',
      '--root',
      '/w/added',
      '--project-temp-dir',
      '/w/tmp',
    ]);
    expect(withRootArgs(memory, ['/w/proj', '/w/other'])).toBe(memory);
    const ext = servers.find((s) => s.alias === 'ext')!;
    expect(withRootArgs(ext, ['/w/added'])).toBe(ext);
  });

  it('configures the built-ins from their built entries with roots and the project temp dir', () => {
    const servers = resolveServers({}, { ...base, env: {} });
    expect(servers.map((s) => s.alias)).toEqual(['filesystem', 'shell', 'web', 'memory']);
    const fs = servers[0]!;
    expect(fs).toMatchObject({
      builtIn: true,
      trust: false,
      transport: 'stdio',
      command: process.execPath,
      timeoutMs: 600_000,
    });
    expect(fs.args).toEqual([
      builtInEntry('filesystem'),
      '--root',
      '/w/proj',
      '--root',
      '/w/other',
      '--project-temp-dir',
      '/w/tmp',
    ]);
    expect(builtInEntry('filesystem')).toMatch(
      /dist[\\/](bin[\\/]gemini-mcp-filesystem\.cjs|servers[\\/]filesystem[\\/]main\.js)$/,
    );
  });

  it('adds the discovery bridge when tools.discoveryCommand is set', () => {
    const servers = resolveServers(
      { tools: { discoveryCommand: 'bin/discover --all', callCommand: 'bin/call' } },
      { ...base, env: {} },
    );
    const d = servers.find((s) => s.alias === 'discovered')!;
    expect(d.builtIn).toBe(true);
    expect(d.args!.slice(0, 5)).toEqual([
      builtInEntry('discovered'),
      '--discovery-command',
      'bin/discover --all',
      '--call-command',
      'bin/call',
    ]);
    expect(d.args).toContain('--root');
  });

  it('lets a user entry replace a built-in by alias, mcp.excluded disable one, mcp.allowed filter third-party servers', () => {
    const set = resolveServerSet(
      {
        mcpServers: { shell: { command: 'my-shell' }, extra: { command: 'x' }, other: { command: 'y' } },
        mcp: { excluded: ['web'], allowed: ['extra', 'shell'] },
      },
      { ...base, env: {} },
    );
    expect(set.servers.map((s) => s.alias)).toEqual(['filesystem', 'shell', 'memory', 'extra']);
    expect(set.servers[1]).toMatchObject({ builtIn: false, command: 'my-shell' });
    expect(set.blocked).toEqual([
      { alias: 'web', reason: 'excluded by mcp.excluded' },
      { alias: 'other', reason: expect.stringContaining('mcp.allowed') },
    ]);
  });

  it('validates aliases', () => {
    expect(validateAlias('good-alias_1')).toBeUndefined();
    expect(validateAlias('a__b')).toMatch(/"__"/);
    expect(validateAlias('trailing_')).toMatch(/end with "_"/);
    expect(validateAlias('1abc')).toMatch(/start with a letter/);
    expect(resolveServers({ mcpServers: { bad__alias: { command: 'x' } } }, { ...base, env: {} }).at(-1)).toMatchObject(
      { alias: 'bad_alias', name: 'bad__alias' },
    );
    expect(() => resolveServers({ mcpServers: { nothing: {} } }, { ...base, env: {} })).toThrow(
      /needs "command", "url" or "httpUrl"/,
    );
  });

  it('sanitises third-party environments and gives built-ins only what they need', () => {
    const env = {
      PATH: '/bin',
      HOME: '/home/u',
      MY_API_KEY: 'k1',
      GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
      GEMINI_API_KEY: 'AIzaSyA-very-secret-value-1234567890ab',
      INNOCENT: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
      EDITOR: 'vim',
      GEMINI_CLI_HOME: '/gh',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem',
    };
    const servers = resolveServers(
      { mcpServers: { gh: { command: 'gh', env: { GITHUB_TOKEN: '$GITHUB_TOKEN' } } } },
      { ...base, env },
    );
    const by = Object.fromEntries(servers.map((s) => [s.alias, s.env!]));
    expect(by.gh).toMatchObject({ PATH: '/bin', EDITOR: 'vim', GITHUB_TOKEN: '$GITHUB_TOKEN', GEMINI_CLI: '1' });
    expect(by.gh).not.toHaveProperty('MY_API_KEY');
    expect(by.gh).not.toHaveProperty('GEMINI_API_KEY');
    expect(by.gh).not.toHaveProperty('INNOCENT'); // secret-looking value
    expect(by.web).toMatchObject({ GEMINI_API_KEY: env.GEMINI_API_KEY });
    expect(by.web).not.toHaveProperty('GITHUB_TOKEN');
    expect(by.memory).toMatchObject({ GEMINI_CLI_HOME: '/gh' });
    expect(by.shell).toMatchObject({ EDITOR: 'vim' });
    expect(by.shell).not.toHaveProperty('GEMINI_API_KEY');
    expect(by.filesystem).toEqual({ PATH: '/bin', HOME: '/home/u', GEMINI_CLI: '1' });
    // Extra CAs cost every Node process its start-up parse: only servers that speak TLS or run user
    // commands get them.
    expect(by.memory).not.toHaveProperty('NODE_EXTRA_CA_CERTS');
    for (const s of ['web', 'gh']) expect(by[s]).toMatchObject({ NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem' });
    // The shell's commands get them; the server itself starts without (protocol/deferred-ca-certs.ts).
    expect(by.shell).not.toHaveProperty('NODE_EXTRA_CA_CERTS');
    expect(by.shell).toMatchObject({ [DEFERRED_CA_CERTS]: '/etc/ssl/corp.pem' });
    expect(looksSecret('PWD', '/x')).toBe(false);
    expect(sanitizedEnv({ MY_KEY: 'x' }, { allowed: ['MY_KEY'] })).toEqual({ MY_KEY: 'x' });
    expect(sanitizedEnv({ EDITOR: 'x' }, { blocked: ['EDITOR'] })).toEqual({});
  });

  it('the servers that run commands but speak no TLS get the extra CAs deferred: the shell and discovery', () => {
    const env = { PATH: '/bin', NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem' };
    const servers = resolveServers({ tools: { discoveryCommand: 'list-tools' } }, { ...base, env });
    const by = Object.fromEntries(servers.map((s) => [s.alias, s.env!]));
    for (const alias of ['shell', DISCOVERY_ALIAS]) {
      expect(by[alias], alias).not.toHaveProperty('NODE_EXTRA_CA_CERTS');
      expect(by[alias], alias).toMatchObject({ [DEFERRED_CA_CERTS]: '/etc/ssl/corp.pem' });
    }
    expect(by.web).toMatchObject({ NODE_EXTRA_CA_CERTS: '/etc/ssl/corp.pem' });
    expect(by.web).not.toHaveProperty(DEFERRED_CA_CERTS);
  });

  it('passes agent sockets and session plumbing that only look secret; settings env passes anything', () => {
    const env = {
      PATH: '/bin',
      SSH_AUTH_SOCK: '/tmp/ssh-x/agent.1',
      GPG_AGENT_INFO: '/run/gpg:0:1',
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/bus',
      MY_APP_SOCKET: '/run/app.sock',
      EVIL_SOCK: 'ghp_abcdefghijklmnopqrstuvwxyz0123',
      SESSION_TOKEN: 'abc',
      AWS_SESSION_TOKEN: 'x',
    };
    const servers = resolveServers(
      { mcpServers: { t: { command: 't', env: { SESSION_TOKEN: 'given', ANYTHING: 'v' } } } },
      { ...base, env },
    );
    const by = Object.fromEntries(servers.map((s) => [s.alias, s.env!]));
    for (const alias of ['t', 'shell']) {
      expect(by[alias]).toMatchObject({
        SSH_AUTH_SOCK: env.SSH_AUTH_SOCK,
        GPG_AGENT_INFO: env.GPG_AGENT_INFO,
        MY_APP_SOCKET: '/run/app.sock',
      });
      expect(by[alias]).not.toHaveProperty('EVIL_SOCK');
      expect(by[alias]).not.toHaveProperty('AWS_SESSION_TOKEN');
    }
    expect(by.t).toMatchObject({ SESSION_TOKEN: 'given', ANYTHING: 'v' });
    expect(by.shell).not.toHaveProperty('SESSION_TOKEN');
  });
});
