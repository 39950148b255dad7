import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../../host/config/settings.js';
import { resolveServerSet, resolveServers, builtInEntry } from '../../../host/config/servers.js';
import { validateAlias } from '../../../host/config/server-names.js';
import { expandString } from '../../../host/config/expand.js';
import { sanitizedEnv, looksSecret } from '../../../host/config/env.js';
import { tempDir } from '../../helpers/tmp.js';

function layout() {
  const root = tempDir('gmc-settings-');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(join(project, '.gemini'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(root, 'system.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(root, 'system-defaults.json'),
    PATH: process.env.PATH,
    // Layering is tested in a trusted folder; folder trust has its own suite.
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
  };
  const write = (file: 'user' | 'workspace' | 'system' | 'defaults', data: unknown) => {
    const path = {
      user: join(home, '.gemini/settings.json'),
      workspace: join(project, '.gemini/settings.json'),
      system: join(root, 'system.json'),
      defaults: join(root, 'system-defaults.json'),
    }[file];
    writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
    return path;
  };
  return { root, home, project, env, write };
}

describe('loadSettings', () => {
  it('layers system defaults < user < workspace < system overrides; mcpServers replace whole entries', () => {
    const t = layout();
    t.write('defaults', {
      model: { name: 'from-defaults', maxSessionTurns: 5 },
      tools: { truncateToolOutputThreshold: 1 },
    });
    t.write('user', {
      model: { name: 'from-user' },
      mcpServers: { a: { command: 'a-user', args: ['x'], trust: true }, b: { command: 'b-user' } },
    });
    t.write('workspace', {
      model: { name: 'from-workspace' },
      mcpServers: { a: { command: 'a-ws' } },
      context: { includeDirectories: ['w'] },
    });
    t.write('system', { tools: { truncateToolOutputThreshold: 99 } });
    const s = loadSettings({ cwd: t.project, env: t.env });
    expect(s.merged.model?.name).toBe('from-workspace');
    expect(s.merged.model?.maxSessionTurns).toBe(5);
    expect(s.merged.tools?.truncateToolOutputThreshold).toBe(99);
    expect(s.merged.mcpServers?.a).toEqual({ command: 'a-ws' }); // no leftover args/trust from the user layer
    expect(s.merged.mcpServers?.b).toEqual({ command: 'b-user' });
    expect(s.files.map((f) => f.scope)).toEqual(['system-defaults', 'user', 'workspace', 'system']);
  });

  it('expands $VAR, ${VAR}, ${VAR:-default} and leaves unset placeholders literal', () => {
    const t = layout();
    t.env.TOKEN_X = 'sekret';
    t.env.EMPTY = '';
    t.write('user', {
      mcpServers: {
        gh: {
          command: 'gh-mcp',
          args: ['--dir', '${HOME_DIR:-/fallback}'],
          env: { A: '$TOKEN_X', B: 'pre-${TOKEN_X}-post', C: '${NOPE}', D: '${EMPTY:-dflt}', E: '$NOPE_TOO' },
        },
      },
    });
    const gh = loadSettings({ cwd: t.project, env: t.env }).merged.mcpServers!.gh!;
    expect(gh.env).toEqual({ A: 'sekret', B: 'pre-sekret-post', C: '${NOPE}', D: 'dflt', E: '$NOPE_TOO' });
    expect(gh.args).toEqual(['--dir', '/fallback']);
    expect(expandString('${X:-a b}', {})).toBe('a b');
  });

  it('rejects wrong types with the file and key in the message', () => {
    const t = layout();
    const path = t.write('workspace', { mcpServers: { gh: { command: 'x', timeout: '10s' } } });
    let err: unknown;
    try {
      loadSettings({ cwd: t.project, env: t.env });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsError);
    expect((err as SettingsError).message).toContain(path);
    expect((err as SettingsError).message).toContain('mcpServers.gh.timeout');
    expect((err as SettingsError).key).toBe('mcpServers.gh.timeout');
  });

  it('reports broken JSON with the file, and accepts comments', () => {
    const t = layout();
    const path = t.write('user', '{"model": {"name": "x",}}');
    expect(() => loadSettings({ cwd: t.project, env: t.env })).toThrow(path);
    t.write('user', '// comment\n{"model": /* inline */ {"name": "x // not a comment"}}');
    expect(loadSettings({ cwd: t.project, env: t.env }).merged.model?.name).toBe('x // not a comment');
  });

  it('loads server names other clients accept ("__", dots, spaces, a trailing "_")', () => {
    const t = layout();
    t.write('user', { mcpServers: { my__server: { command: 'x' }, 'My Tools': { command: 'y' } } });
    expect(Object.keys(loadSettings({ cwd: t.project, env: t.env }).merged.mcpServers ?? {})).toEqual([
      'my__server',
      'My Tools',
    ]);
  });

  it('ignores unknown keys and loads a Claude Desktop / Gemini CLI block unchanged', () => {
    const t = layout();
    // claude_desktop_config.json shape, plus keys from other tools and newer Gemini CLI versions.
    t.write('user', {
      globalShortcut: 'Ctrl+Space',
      ui: { theme: 'Dracula' },
      mcpServers: {
        filesystem2: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
          env: { FOO: 'bar' },
        },
        remote: {
          url: 'https://example.com/mcp',
          headers: { Authorization: 'Bearer x' },
          disabled: false,
          autoApprove: [],
        },
        claudeCode: { type: 'streamable-http', url: 'https://example.com/mcp2' },
        legacy: { httpUrl: 'https://example.com/h', oauth: { enabled: true } },
      },
    });
    const s = loadSettings({ cwd: t.project, env: t.env });
    expect((s.merged as Record<string, unknown>).globalShortcut).toBe('Ctrl+Space');
    const servers = resolveServers(s, { cwd: t.project, projectTempDir: join(t.root, 'tmp'), env: t.env });
    const byAlias = Object.fromEntries(servers.map((c) => [c.alias, c]));
    expect(byAlias.filesystem2).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
      builtIn: false,
      trust: false,
    });
    expect(byAlias.filesystem2!.env!.FOO).toBe('bar');
    expect(byAlias.remote).toMatchObject({
      transport: 'auto',
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer x' },
    });
    expect(byAlias.claudeCode!.transport).toBe('http');
    expect(byAlias.legacy!.transport).toBe('http');
  });

  it('reads v1 keys as fallbacks with a warning', () => {
    const t = layout();
    t.write('user', { coreTools: ['read_file'], excludeMCPServers: ['x'], toolDiscoveryCommand: 'disc' });
    const s = loadSettings({ cwd: t.project, env: t.env });
    expect(s.merged.tools?.core).toEqual(['read_file']);
    expect(s.merged.mcp?.excluded).toEqual(['x']);
    expect(s.merged.tools?.discoveryCommand).toBe('disc');
    expect(s.warnings.length).toBe(3);
  });
});

describe('resolveServers', () => {
  const base = { cwd: '/w/proj', roots: ['/w/proj', '/w/other'], projectTempDir: '/w/tmp' };

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
      /dist[\\/](bin[\\/]gemini-mcp-filesystem\.mjs|servers[\\/]filesystem[\\/]main\.js)$/,
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
    expect(looksSecret('PWD', '/x')).toBe(false);
    expect(sanitizedEnv({ MY_KEY: 'x' }, { allowed: ['MY_KEY'] })).toEqual({ MY_KEY: 'x' });
    expect(sanitizedEnv({ EDITOR: 'x' }, { blocked: ['EDITOR'] })).toEqual({});
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
