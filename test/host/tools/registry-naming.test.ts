import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseToolPattern } from '../../../host/config/tool-pattern.js';
import { exposedName, patternNamesTool, sanitizeNamePart } from '../../../host/tools/naming.js';
import { ToolRegistry, DECLARATION_BUDGET } from '../../../host/tools/registry.js';
import { McpClientManager } from '../../../host/mcp/client-manager.js';
import { resolveServers, type ResolvedServerConfig } from '../../../host/config/servers.js';
import { schemaProblem } from '../../../host/tools/declarations.js';
import { REPO } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const FAULT = join(REPO, 'test/fixtures/fault-server.mjs');
const LONG = 'a_tool_with_a_remarkably_long_name_'.padEnd(100, 'x');
const managers: McpClientManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

function fault(
  alias: string,
  extra: Partial<ResolvedServerConfig> = {},
  env: Record<string, string> = {},
): ResolvedServerConfig {
  return {
    alias,
    builtIn: false,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args: [FAULT],
    env: { PATH: process.env.PATH!, ...env },
    timeoutMs: 60_000,
    ...extra,
  };
}

async function registryFor(servers: ResolvedServerConfig[], settings = {}) {
  const m = new McpClientManager({ servers, roots: [REPO] });
  managers.push(m);
  m.start();
  await m.whenSettled();
  return { m, reg: new ToolRegistry(m, settings) };
}

describe('naming', () => {
  it('prefixes, sanitises and keeps short names readable', () => {
    expect(exposedName('filesystem', 'read_file')).toBe('filesystem__read_file');
    expect(exposedName('srv', 'slow.tool/v2')).toBe('srv__slow.tool_v2');
    expect(exposedName('srv', 'with space&ümlaut')).toBe('srv__with_space__mlaut');
    expect(sanitizeNamePart('')).toBe('_');
  });

  it('caps at 64 characters: 55-character head, "_", 8 hex digits of a stable hash', () => {
    const name = exposedName('fault', LONG);
    expect(name).toHaveLength(64);
    expect(name.slice(0, 55)).toBe(`fault__${LONG}`.slice(0, 55));
    expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_.:-]*_[0-9a-f]{8}$/);
    expect(exposedName('fault', LONG)).toBe(name); // stable
    expect(exposedName('fault', `${LONG}y`)).not.toBe(name); // same head, different tool
    expect(exposedName('other', LONG)).not.toBe(name);
    const exactly64 = 'x'.repeat(64 - 'srv__'.length);
    expect(exposedName('srv', exactly64)).toBe(`srv__${exactly64}`);
  });

  it('matches settings patterns in the Gemini CLI and prefixed forms', () => {
    const tool = {
      exposedName: 'shell__run_shell_command',
      serverAlias: 'shell',
      toolName: 'run_shell_command',
      builtIn: true,
    };
    expect(parseToolPattern('run_shell_command(git log)')).toEqual({ name: 'run_shell_command', arg: 'git log' });
    for (const p of [
      'run_shell_command',
      'run_shell_command(git)',
      'shell__run_shell_command',
      'shell__run_shell_command(git)',
      'shell__*',
    ]) {
      expect(patternNamesTool(p, tool), p).toBe(true);
    }
    expect(patternNamesTool('web__*', tool)).toBe(false);
    expect(patternNamesTool('read_file', tool)).toBe(false);
  });

  it('spots schemas that would break every request', () => {
    expect(schemaProblem({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
    expect(
      schemaProblem({ type: 'object', $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } } }),
    ).toMatch(/cycle/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { x: deep } };
    expect(schemaProblem(deep)).toMatch(/deeper/);
  });
});

describe('ToolRegistry', () => {
  it('exposes prefixed names mapped back to (server, original tool), never re-parsed', async () => {
    const { reg } = await registryFor([fault('fault', { trust: true })]);
    const long = reg.get(exposedName('fault', LONG))!;
    expect(long).toMatchObject({ serverAlias: 'fault', toolName: LONG });
    expect(long.exposedName).toHaveLength(64);
    expect(reg.get('fault__echo')).toMatchObject({
      serverAlias: 'fault',
      toolName: 'echo',
      readOnly: true,
      trusted: true,
      builtIn: false,
    });
    for (const d of reg.declarations()) expect(d.name).toMatch(/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/);
  });

  it("finds a tool by the names rules use (Gemini CLI's mcp_<server>_<tool>), never by a wildcard", async () => {
    const { reg } = await registryFor([fault('fault')]);
    expect(reg.get('mcp_fault_echo')!.exposedName).toBe('fault__echo');
    expect(reg.get('fault__*')).toBeUndefined();
    expect(reg.get('mcp_fault_*')).toBeUndefined();
    expect(reg.get('echo')).toBeUndefined(); // a bare name means a built-in only
  });

  it('first tool wins a name collision, with a warning naming both', async () => {
    const { reg } = await registryFor([fault('fault')]);
    expect(reg.get('fault__dup_name')!.toolName).toBe('dup/name');
    const w = reg.warnings().find((x) => x.includes('collision'))!;
    expect(w).toContain("'fault__dup_name'");
    expect(w).toContain("MCP server 'fault' (tool 'dup_name')");
    expect(w).toContain("MCP server 'fault' (tool 'dup/name')");
    expect(reg.list().filter((t) => t.exposedName === 'fault__dup_name')).toHaveLength(1);
  });

  it('two aliases of the same server get distinct names, and untrusted hints are not believed', async () => {
    const { reg } = await registryFor([fault('one'), fault('two', { trust: true })]);
    expect(reg.get('one__echo')!.readOnly).toBe(false);
    expect(reg.get('two__echo')!.readOnly).toBe(true);
    expect(reg.get(exposedName('one', LONG))).toBeDefined();
    expect(reg.get(exposedName('two', LONG))).toBeDefined();
    expect(reg.warnings().filter((w) => w.includes('collision'))).toHaveLength(2); // one per server, none across
  });

  it('a collision across two servers keeps the first in configuration order and names both servers', async () => {
    // Valid aliases cannot collide (no "__", no trailing "_"); configs built in code bypass that check.
    const { reg } = await registryFor([
      fault('x y', { includeTools: ['echo'] }),
      fault('x_y', { includeTools: ['echo'] }),
    ]);
    expect(reg.get('x_y__echo')!.serverAlias).toBe('x y');
    expect(reg.warnings()).toEqual([
      expect.stringMatching(
        /'x_y__echo' from MCP server 'x_y' \(tool 'echo'\) is already used by MCP server 'x y' \(tool 'echo'\)/,
      ),
    ]);
  });

  it('declarations carry parametersJsonSchema without $schema or host-only parameters', async () => {
    const { reg } = await registryFor([fault('fault')]);
    const d = reg.get('fault__schema_tool')!.declaration;
    expect(d.parametersJsonSchema).toEqual({
      type: 'object',
      properties: { file_path: { type: 'string' } },
      required: ['file_path'],
    });
    expect(reg.get('fault__schema_tool')!.inputSchema).toHaveProperty('$schema'); // validation keeps the original
  });

  it('applies tools.core and tools.exclude in both forms', async () => {
    const dir = tempDir();
    const servers = [
      ...resolveServers({}, { cwd: dir, projectTempDir: join(dir, '.tmp') }).filter((s) => s.alias === 'filesystem'),
      fault('fault'),
    ];
    const { reg } = await registryFor(servers, {
      tools: { core: ['read_file', 'filesystem__glob'], exclude: ['fault__echo', 'crash', 'hang(x)'] },
    });
    const names = reg.list().map((t) => t.exposedName);
    expect(names.filter((n) => n.startsWith('filesystem__')).sort()).toEqual([
      'filesystem__glob',
      'filesystem__read_file',
    ]);
    expect(names).not.toContain('fault__echo');
    expect(names).not.toContain('fault__crash');
    // tools.core is an allowlist for every server, as in Gemini CLI: unnamed third-party tools are left out
    expect(names.filter((n) => n.startsWith('fault__'))).toEqual([]);
    const limited = new ToolRegistry(managers[0]!, {
      tools: { core: ['fault__echo', 'mcp_fault_hang', 'grep_search'], exclude: ['hang(x)'] },
    });
    expect(
      limited
        .list()
        .filter((t) => t.serverAlias === 'fault')
        .map((t) => t.toolName),
    ).toEqual(['echo', 'hang']); // an entry with arguments narrows use, it does not remove the tool
    expect(
      limited
        .list()
        .filter((t) => t.serverAlias === 'filesystem')
        .map((t) => t.toolName),
    ).toEqual(['search_file_content']);
  });

  it('warns past the declaration budget and follows list_changed', async () => {
    const { m, reg } = await registryFor([fault('big', {}, { FAULT_EXTRA_TOOLS: String(DECLARATION_BUDGET) })]);
    expect(reg.warnings().some((w) => w.includes(`at most ${DECLARATION_BUDGET}`))).toBe(true);
    const changed = new Promise((r) => reg.once('changed', r));
    await m.callTool('big', 'add_tool', {});
    await changed;
    expect(reg.get('big__extra_tool')).toBeDefined();
  });
});
