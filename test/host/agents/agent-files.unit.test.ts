import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentsFrom } from '../../../host/agents/agent-files.js';
import { agentTools } from '../../../host/core/agent-setup.js';
import { invokeAgentEntry } from '../../../host/tools/invoke-agent.js';
import { toDeclaration } from '../../../host/tools/declarations.js';
import type { RegisteredTool } from '../../../host/tools/registry.js';
import { hostToolEntry } from '../../../host/tools/registered-tool.js';
import { tempDir } from '../../helpers/tmp.js';

function folder(files: Record<string, string>): string {
  const dir = join(tempDir('agents-'), 'agents');
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('agent files', () => {
  it("reads Gemini CLI's front matter and rejects what 0.61 rejects, naming the file", () => {
    const path = folder({
      'ok.md':
        '---\nname: ok\ndescription: Fine.\ntools: [read_file]\nmodel: gemini-2.5-flash\nmax_turns: 3\n---\nBody.\n',
      'typo.md': '---\nname: typo\ndescription: d\ntool: [read_file]\n---\n',
      'badname.md': '---\nname: Bad Name\ndescription: d\n---\n',
      'remote.md': '---\nkind: remote\nname: r\nagent_card_url: https://example.com/card\n---\n',
      'nofront.md': 'just text',
      '_draft.md': 'ignored entirely',
      'notes.txt': 'not an agent',
    });
    const { agents, errors } = loadAgentsFrom({ path, source: 'user', format: 'gemini' });
    expect(agents.map((a) => [a.name, a.tools, a.model, a.maxTurns, a.timeoutMinutes, a.systemPrompt])).toEqual([
      ['ok', ['read_file'], 'gemini-2.5-flash', 3, 10, 'Body.'],
    ]);
    expect(errors).toHaveLength(4);
    expect(errors.find((e) => e.includes('typo.md'))).toContain('Validation failed');
    expect(errors.find((e) => e.includes('badname.md'))).toContain('Name must be a valid slug');
    expect(errors.find((e) => e.includes('remote.md'))).toContain('remote agents are not supported');
    expect(errors.find((e) => e.includes('nofront.md'))).toContain('Missing mandatory YAML frontmatter');
  });

  it("reads Claude Code's: tools as a comma list, its model names as the session's model, other keys ignored", () => {
    const path = folder({
      'finder.md':
        '---\nname: finder\ndescription: Finds: files.\ntools: Read, Grep ,Glob\nmodel: sonnet\ncolor: red\n---\nFind.\n',
      'all.md': '---\nname: all\ndescription: Everything.\n---\nAll.\n',
    });
    const { agents, errors } = loadAgentsFrom({ path, source: 'project', format: 'claude' });
    expect(errors).toEqual([]);
    const byName = Object.fromEntries(agents.map((a) => [a.name, a]));
    expect(byName.finder!.tools).toEqual(['Read', 'Grep', 'Glob']);
    expect(byName.finder!.model).toBe('inherit');
    expect(byName.finder!.description).toBe('Finds: files.');
    expect(byName.all!.tools).toBeUndefined();
  });
});

describe("an agent's tools", () => {
  const server = (alias: string, tool: string, builtIn: boolean): RegisteredTool => ({
    exposedName: `${alias}__${tool}`,
    serverAlias: alias,
    toolName: tool,
    description: '',
    readOnly: false,
    confirmsInCall: false,
    trusted: false,
    builtIn,
    inputSchema: { type: 'object' },
    annotations: {},
    declaration: toDeclaration(`${alias}__${tool}`, '', { type: 'object' }),
  });
  const all = [
    server('filesystem', 'read_file', true),
    server('filesystem', 'write_file', true),
    server('shell', 'run_shell_command', true),
    server('jira', 'create_issue', false),
    invokeAgentEntry(),
    hostToolEntry('update_topic', 'Topic', '', { type: 'object' }),
    hostToolEntry('activate_skill', 'Skill', '', { type: 'object' }),
  ];
  const names = (tools?: string[]) =>
    agentTools(
      {
        name: 'a',
        description: 'd',
        systemPrompt: '',
        query: '',
        inputName: 'query',
        model: 'inherit',
        tools,
        maxTurns: 1,
        timeoutMinutes: 1,
        source: 'user',
      },
      all,
    ).map((t) => t.exposedName);

  it('never include invoke_agent (no recursion) or update_topic, even with * or no list', () => {
    expect(names(undefined)).not.toContain('invoke_agent');
    expect(names(['*'])).toEqual([
      'filesystem__read_file',
      'filesystem__write_file',
      'shell__run_shell_command',
      'jira__create_issue',
      'activate_skill',
    ]);
    expect(names(['invoke_agent', 'update_topic'])).toEqual([]);
  });

  it("take Gemini CLI's, Claude Code's and MCP names", () => {
    expect(names(['read_file', 'Bash'])).toEqual(['filesystem__read_file', 'shell__run_shell_command']);
    expect(names(['mcp_*'])).toEqual(['jira__create_issue']);
    expect(names(['mcp_jira_*', 'filesystem__write_file'])).toEqual(['filesystem__write_file', 'jira__create_issue']);
  });
});
