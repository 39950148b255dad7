import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.js';
import { reply, type RecordedRequest } from '../../helpers/scripted-gemini.mjs';
import { relevance, searchTools, selectTools, type SearchableTool } from '../../../host/tools/tool-search.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

const FAULT = join(REPO, 'test/fixtures/fault-server.mjs');
const declared = (req: RecordedRequest): { name: string }[] =>
  (req.body.tools ?? []).flatMap((t: { functionDeclarations?: { name: string }[] }) => t.functionDeclarations ?? []);

describe('many tools: the most relevant are declared, search_tools finds the rest', () => {
  const ws = workspace();
  // 400 generated tools on top of the fault server's own: far over the declaration budget.
  ws.settings({
    ...ONLY(),
    mcpServers: { f: { command: process.execPath, args: [FAULT], env: { FAULT_EXTRA_TOOLS: '400' }, trust: true } },
  });
  const endpoint = scriptedEndpoints();

  it('the first request stays under 25,000 characters; a searched tool is declared next and its call works', async () => {
    // `tools list` starts every server and caches its listing, so no run below waits for the fault server.
    const listed = await runHost(['tools', 'list'], { ws });
    expect(listed.code, listed.stderr).toBe(0);
    const ep = await endpoint();
    ep.push(
      reply.calls({ id: 's1', name: 'search_tools', args: { query: 'generated_399' } }),
      reply.calls({ id: 'c1', name: 'f__generated_399', args: {} }),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'use the last generated tool'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [first, second, third] = ep.requestsOf('streamGenerateContent');
    const names1 = declared(first!).map((d) => d.name);
    expect(JSON.stringify(first!.body.tools).length).toBeLessThanOrEqual(25_000);
    expect(names1).toContain('search_tools');
    expect(names1.length).toBeLessThan(400);
    expect(names1).not.toContain('f__generated_399');
    expect(first!.body.systemInstruction.parts[0].text).toContain('`search_tools`');
    const found = JSON.stringify(second!.body.contents.at(-1).parts[0].functionResponse.response);
    expect(found).toContain('f__generated_399');
    expect(declared(second!).map((d) => d.name)).toContain('f__generated_399');
    expect(JSON.stringify(third!.body.contents.at(-1).parts[0].functionResponse.response)).toContain(
      'called generated_399',
    );
  });

  it('a call to a registered tool that was not declared is accepted', async () => {
    const ep = await endpoint(reply.calls({ id: 'c', name: 'f__generated_398', args: {} }), reply.text('ok'));
    const r = await runHost(['-p', 'x'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = ep.requestsOf('streamGenerateContent');
    expect(declared(first!).map((d) => d.name)).not.toContain('f__generated_398');
    expect(JSON.stringify(second!.body.contents.at(-1).parts[0].functionResponse.response)).toContain(
      'called generated_398',
    );
  });
});

describe('search_tools never finds a tool only the host calls', () => {
  const endpoint = scriptedEndpoints();

  it("a search for the shell's tools finds run_shell_command, not write_to_shell (the chat's channel for the user's keys)", async () => {
    const ws = workspace();
    ws.settings({
      ...ONLY('shell'),
      mcpServers: { f: { command: process.execPath, args: [FAULT], env: { FAULT_EXTRA_TOOLS: '400' }, trust: true } },
    });
    const listed = await runHost(['tools', 'list'], { ws });
    expect(listed.code, listed.stderr).toBe(0);
    const ep = await endpoint(
      reply.calls({ id: 's1', name: 'search_tools', args: { query: 'write to shell command input', server: 'shell' } }),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'type into the shell'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [first, second] = ep.requestsOf('streamGenerateContent');
    expect(declared(first!).map((d) => d.name)).toContain('search_tools');
    const found = JSON.stringify(second!.body.contents.at(-1).parts[0].functionResponse.response);
    expect(found).toContain('shell__run_shell_command');
    expect(found).not.toContain('write_to_shell');
  });
});

describe('tool selection and search (pure)', () => {
  const tool = (server: string, name: string, description: string, builtIn = false): SearchableTool => ({
    exposedName: `${server}__${name}`,
    serverAlias: server,
    toolName: name,
    description,
    builtIn,
    declaration: {
      name: `${server}__${name}`,
      description,
      parametersJsonSchema: { type: 'object', properties: { q: { type: 'string', description: 'x'.repeat(200) } } },
    },
  });
  const tools = [
    tool('filesystem', 'read_file', 'Reads a file', true),
    ...Array.from({ length: 40 }, (_, i) => tool(`srv${i % 4}`, `do_thing_${i}`, `Does thing ${i}`)),
    tool('github', 'search_issues', 'Search issues in a GitHub repository'),
  ];

  it('everything is declared under the budget; above it built-ins first, then relevance', () => {
    expect(selectTools(tools, new Set(), '', 1_000_000).deferred).toBe(0);
    const { declared: d, deferred } = selectTools(tools, new Set(), 'find the open github issues', 2_000);
    expect(deferred).toBeGreaterThan(0);
    expect(d[0]!.exposedName).toBe('filesystem__read_file');
    expect(d.map((t) => t.exposedName)).toContain('github__search_issues');
    const active = selectTools(tools, new Set(['srv3__do_thing_39']), '', 2_000).declared.map((t) => t.exposedName);
    expect(active).toContain('srv3__do_thing_39');
  });

  it('search matches names, servers and descriptions, and narrows by server', () => {
    expect(searchTools(tools, { query: 'issues' })[0]!.exposedName).toBe('github__search_issues');
    expect(searchTools(tools, { query: 'thing 7' }).map((t) => t.exposedName)).toContain('srv3__do_thing_7');
    expect(searchTools(tools, { query: '', server: 'srv1' }).every((t) => t.serverAlias === 'srv1')).toBe(true);
    expect(searchTools(tools, { query: 'nothing-like-this' })).toEqual([]);
    expect(relevance(tools[0]!, 'read file')).toBeGreaterThan(relevance(tools[0]!, 'read'));
    expect(relevance(tools[0]!, 'filesystem')).toBeGreaterThan(0);
  });
});
