import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toolPrefixes } from '../../../host/config/server-names.js';
import { REPO } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { runHost, type Workspace } from '../../helpers/run-host.js';

const FAULT = join(import.meta.dirname, '../../fixtures/fault-server.mjs');
const fault = { command: process.execPath, args: [FAULT] };

function userHome(settings: unknown): Workspace {
  const root = tempDir('gmc-names-');
  const home = join(root, 'home');
  const cwd = join(root, 'proj');
  mkdirSync(join(home, '.gemini'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2));
  return { home, cwd, settings: () => undefined, file: () => '' };
}

describe('server names from other clients', () => {
  it('derives valid, unique, stable prefixes; valid names stay as written', () => {
    const names = ['brave.search', 'My Tools', 'github_', 'a__b', 'ok-name', '9lives', '...'];
    expect(Object.fromEntries(toolPrefixes(names))).toEqual({
      'brave.search': 'brave_search',
      'My Tools': 'My_Tools',
      github_: 'github',
      a__b: 'a_b',
      'ok-name': 'ok-name',
      '9lives': 's_9lives',
      '...': 'server',
    });
    // Two names that sanitise alike: one keeps the plain prefix only if nobody else holds it.
    const clash = toolPrefixes(['a.b', 'a b', 'a_b']);
    expect(clash.get('a_b')).toBe('a_b');
    expect(clash.get('a.b')).toMatch(/^a_b_[0-9a-f]{6}$/);
    expect(clash.get('a b')).toMatch(/^a_b_[0-9a-f]{6}$/);
    expect(clash.get('a.b')).not.toBe(clash.get('a b'));
    // Stable: the same name gets the same prefix whatever else is configured, and never a built-in's.
    expect(toolPrefixes(['x', 'a.b', 'a_b', 'zzz']).get('a.b')).toBe(clash.get('a.b'));
    expect(toolPrefixes(['shell!']).get('shell!')).toMatch(/^shell_[0-9a-f]{6}$/);
  });

  it('all four names connect and their tools run under the derived prefix; mcp list shows name and prefix', async () => {
    const ws = userHome({
      mcp: {
        excluded: ['filesystem', 'shell', 'web', 'memory'],
        allowed: ['brave.search', 'My Tools', 'github_', 'a__b'],
      },
      mcpServers: { 'brave.search': fault, 'My Tools': fault, github_: fault, a__b: fault },
    });
    const list = await runHost(['tools', 'list', '--json'], { ws });
    expect(list.code, list.stderr).toBe(0);
    const servers = JSON.parse(list.stdout).servers.map((s: { alias: string; status: string }) => [s.alias, s.status]);
    expect(servers).toEqual([
      ['brave_search', 'connected'],
      ['My_Tools', 'connected'],
      ['github', 'connected'],
      ['a_b', 'connected'],
    ]);
    const call = await runHost(['tools', 'call', 'brave_search__echo', '{"text":"via prefix"}'], { ws });
    expect(call.code, call.stderr).toBe(0);
    expect(call.stdout).toContain('via prefix');
    const mcp = await runHost(['mcp', 'list'], { ws });
    expect(mcp.code, mcp.stderr).toBe(0);
    expect(mcp.stdout).toMatch(/✓ brave\.search \[tools: brave_search__\*\] .* - Connected/);
    expect(mcp.stdout).toMatch(/✓ My Tools \[tools: My_Tools__\*\] .* - Connected/);
    expect(mcp.stdout).toMatch(/✓ a__b \[tools: a_b__\*\] .* - Connected/);
  });
});

describe('an entry named like a built-in', () => {
  it('replaces it and keeps working, with a notice unless "replaceBuiltin": true', async () => {
    const refFs = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
    const refMemory = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
    const ws = userHome({
      mcp: { excluded: ['shell', 'web'] },
      // As pasted from a Claude Desktop configuration.
      mcpServers: {
        filesystem: { command: process.execPath, args: [refFs, '/tmp'] },
        memory: {
          command: process.execPath,
          args: [refMemory],
          env: { MEMORY_FILE_PATH: '/dev/null' },
          replaceBuiltin: true,
        },
      },
    });
    const tools = await runHost(['tools', 'list', '--json'], { ws });
    expect(tools.code, tools.stderr).toBe(0);
    const names: string[] = JSON.parse(tools.stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toContain('filesystem__list_allowed_directories'); // the reference server's tool
    expect(names).toContain('memory__create_entities');
    expect(names).not.toContain('memory__save_memory'); // the built-in is not started
    const notices = tools.stderr.split('\n').filter((l) => l.includes('replace'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('"filesystem" replaces the built-in server');
    expect(notices[0]).not.toContain('"memory"');
    expect(notices[0]).toContain('"replaceBuiltin": true');
    const mcp = await runHost(['mcp', 'list'], { ws });
    expect(mcp.stdout).toMatch(/✓ filesystem \[replaces the built-in; "replaceBuiltin": true silences the notice\]/);
    expect(mcp.stdout).toMatch(/✓ memory \[replaces the built-in\] /);
    expect(mcp.stderr).toContain('"filesystem" replaces the built-in server');
  });
});
