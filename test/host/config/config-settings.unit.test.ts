import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../../host/config/settings.js';
import { loadSettings } from '../../../host/load-settings.js';
import { resolveServers } from '../../../host/config/servers.js';
import { expandString } from '../../../host/config/expand.js';
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
