import { describe, expect, it } from 'vitest';
import {
  acceptForeignArgs,
  BUILTIN_TOOLS,
  builtinByName,
  claudeToolName,
  geminiToolName,
} from '../../../host/tools/builtin-catalogue.js';
import { nameCoversTool } from '../../../host/tools/naming.js';
import { runHost, workspace } from '../../helpers/run-host.js';

describe('the catalogue of built-in tools', () => {
  it('has one row per tool the built-in servers really list, and no row for a tool they do not', async () => {
    const ws = workspace();
    const res = await runHost(['tools', 'list', '--json'], { ws });
    expect(res.code, res.stderr).toBe(0);
    const listed = (JSON.parse(res.stdout).tools as { server: string; tool: string }[])
      .filter((t) => ['filesystem', 'shell', 'web', 'memory'].includes(t.server))
      .map((t) => `${t.server}/${t.tool}`)
      .sort();
    // The host's own tools (plan mode) are no server's: they are checked by their own tests.
    const serverRows = BUILTIN_TOOLS.filter((r) => r.server !== '@host');
    expect(serverRows.map((r) => `${r.server}/${r.tool}`).sort()).toEqual(listed);
  });

  it('every name in it means one tool', () => {
    const seen = new Map<string, string>();
    for (const r of BUILTIN_TOOLS) {
      for (const n of [r.tool, r.geminiName, ...r.aliases, r.claudeName].filter(Boolean) as string[]) {
        expect(seen.get(n) ?? r.tool, n).toBe(r.tool);
        seen.set(n, r.tool);
        expect(builtinByName(n)?.tool).toBe(r.tool);
      }
    }
  });

  it('a bare name covers only the built-in it means, never a third-party tool of the same name', () => {
    const builtin = {
      exposedName: 'filesystem__write_file',
      serverAlias: 'filesystem',
      toolName: 'write_file',
      builtIn: true,
    };
    const foreign = { exposedName: 'ref__write_file', serverAlias: 'ref', toolName: 'write_file', builtIn: false };
    const replaced = { ...builtin, builtIn: false };
    expect(nameCoversTool('write_file', builtin)).toBe(true);
    expect(nameCoversTool('WriteFileTool', builtin)).toBe(true);
    expect(nameCoversTool('Write', builtin)).toBe(true);
    expect(nameCoversTool('write_file', foreign)).toBe(false);
    // A user's server that replaces the built-in is a third party too.
    expect(nameCoversTool('write_file', replaced)).toBe(false);
    for (const n of ['ref__write_file', 'ref__*', 'mcp_ref_write_file', 'mcp_ref_*'])
      expect(nameCoversTool(n, foreign), n).toBe(true);
    const grep = {
      exposedName: 'filesystem__search_file_content',
      serverAlias: 'filesystem',
      toolName: 'search_file_content',
      builtIn: true,
    };
    expect(nameCoversTool('grep_search', grep)).toBe(true);
    expect(geminiToolName(grep)).toBe('grep_search');
    expect(claudeToolName(grep)).toBe('Grep');
    expect(geminiToolName(foreign)).toBe('mcp_ref_write_file');
    expect(claudeToolName(foreign)).toBe('mcp__ref__write_file');
  });

  it("turns Gemini CLI 0.61's argument spellings into ours; ours pass unchanged", () => {
    const t = (tool: string, server = 'filesystem', props: string[] = []) => ({
      serverAlias: server,
      toolName: tool,
      builtIn: true,
      inputSchema: { properties: Object.fromEntries(props.map((p) => [p, {}])) },
    });
    const read = t('read_file', 'filesystem', ['absolute_path', 'offset', 'limit']);
    expect(acceptForeignArgs(read, { file_path: 'src/a.ts', start_line: 11, end_line: 20 }, '/w')).toEqual({
      absolute_path: '/w/src/a.ts',
      offset: 10,
      limit: 10,
    });
    expect(acceptForeignArgs(read, { absolute_path: '/x/a.ts' }, '/w')).toEqual({ absolute_path: '/x/a.ts' });
    const ls = t('list_directory', 'filesystem', ['path', 'respect_git_ignore']);
    expect(
      acceptForeignArgs(ls, { dir_path: 'sub', file_filtering_options: { respect_git_ignore: false } }, '/w'),
    ).toEqual({ path: '/w/sub', respect_git_ignore: false });
    const grep = t('search_file_content', 'filesystem', ['pattern', 'path', 'include']);
    expect(acceptForeignArgs(grep, { pattern: 'x', include_pattern: '*.ts', names_only: true }, '/w')).toEqual({
      pattern: 'x',
      include: '*.ts',
    });
    const shell = t('run_shell_command', 'shell', ['command', 'directory']);
    expect(acceptForeignArgs(shell, { command: 'ls', dir_path: '/w/sub', is_background: false }, '/w')).toEqual({
      command: 'ls',
      directory: 'sub',
    });
    const foreign = { ...read, builtIn: false };
    expect(acceptForeignArgs(foreign, { file_path: 'a' }, '/w')).toEqual({ file_path: 'a' });
  });
});
