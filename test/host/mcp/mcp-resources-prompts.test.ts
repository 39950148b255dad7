import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runMcpCommand } from '../../../host/cli/mcp-subcommand.js';
import { processAtCommands } from '../../../host/core/at-command.js';
import { expandPromptCommand } from '../../../host/core/mcp-prompt-command.js';
import { callResourceTool, findResourceRefs } from '../../../host/tools/resource-tools.js';
import { ToolRegistry } from '../../../host/tools/registry.js';
import { tempDir } from '../../helpers/tmp.js';
import { allText, EVERYTHING, everythingHarness, type Transport } from './everything-helpers.js';

const h = everythingHarness();
const DOC = 'demo://resource/static/document/architecture.md';

describe.each<Transport>(['stdio', 'streamableHttp'])(
  'resources and prompts of server-everything over %s',
  (transport) => {
    it('list_mcp_resources / read_mcp_resource: declared while a server offers resources, across servers', async () => {
      const m = await h.started([await h.config(transport)]);
      const registry = new ToolRegistry(m, {});
      const names = registry.declarations().map((d) => d.name);
      expect(names).toEqual(expect.arrayContaining(['list_mcp_resources', 'read_mcp_resource']));
      const listed = allText(await callResourceTool(m, 'list_mcp_resources', {}));
      expect(listed).toContain('Server everything:');
      expect(listed).toContain(DOC);
      expect(listed).toMatch(/template demo:\/\/resource\/dynamic\/text\/\{resourceId\}/);
      const read = await callResourceTool(m, 'read_mcp_resource', { server: 'everything', uri: DOC });
      expect(read.isError).toBeUndefined();
      expect(allText(read).length).toBeGreaterThan(20);
      const bad = await callResourceTool(m, 'read_mcp_resource', { server: 'nope', uri: DOC });
      expect(bad.isError).toBe(true);
      registry.dispose();
    });

    it('@server:uri in a prompt inlines the resource; the reference stays as text', async () => {
      const m = await h.started([await h.config(transport)]);
      expect(findResourceRefs(`see @everything:${DOC}, thanks`, ['everything'])).toEqual([
        { start: 4, end: 5 + 'everything:'.length + DOC.length, server: 'everything', uri: DOC },
      ]);
      expect(findResourceRefs('mail me@example.com or @other:x://y', ['everything'])).toEqual([]);
      const registry = { get: () => undefined, list: () => [] };
      const scheduler = { schedule: async () => [], on() {}, off() {} } as never;
      const r = await processAtCommands(`summarise @everything:${DOC}`, {
        runtime: { scheduler, registry, manager: m },
        signal: new AbortController().signal,
        promptId: 'p',
      });
      expect(r.parts[0]).toEqual({ text: `summarise everything:${DOC}` });
      expect((r.parts[1] as { text: string }).text).toContain(
        `--- Content from resource ${DOC} (MCP server everything) ---`,
      );
    });

    it('/prompt arg=value runs the MCP prompt; arguments are validated and completed', async () => {
      const m = await h.started([await h.config(transport)]);
      const ok = await expandPromptCommand(m, '/args-prompt city=Paris state="Île-de-France"');
      expect(ok).toMatchObject({ ok: true, alias: 'everything', name: 'args-prompt' });
      expect(JSON.stringify(ok)).toContain('Paris, Île-de-France');
      expect(await expandPromptCommand(m, '/args-prompt Lyon')).toMatchObject({ ok: true });
      expect(await expandPromptCommand(m, '/args-prompt town=x')).toMatchObject({
        ok: false,
        error: expect.stringContaining('has no argument "town"'),
      });
      const missing = await expandPromptCommand(m, '/completable-prompt');
      expect(missing).toMatchObject({
        ok: false,
        error: expect.stringMatching(/needs department=.*Engineering, Sales, Marketing, Support/),
      });
      expect(await m.completePromptArgument('everything', 'completable-prompt', 'department', 'Sa')).toEqual(['Sales']);
      expect(await expandPromptCommand(m, '/not-a-prompt x')).toBeUndefined();
    });
  },
);

describe('gemini-mcp mcp resources | read | prompts', () => {
  it('lists, reads and shows prompts of a configured server', async () => {
    const home = tempDir('gmc-inspect-');
    const cwd = join(home, 'proj');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }),
    );
    const run = async (...argv: string[]) => {
      let out = '';
      let err = '';
      const sink = (f: (s: string) => void) => new Writable({ write: (c, _e, cb) => (f(String(c)), cb()) });
      const code = await runMcpCommand(argv, {
        cwd,
        env: { ...process.env, GEMINI_CLI_HOME: home },
        stdout: sink((s) => (out += s)),
        stderr: sink((s) => (err += s)),
      });
      return { code, out, err };
    };
    const res = await run('resources', 'everything');
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain(`  ${DOC}`);
    expect(res.out).toContain('(template');
    const read = await run('read', 'everything', DOC);
    expect(read.code, read.err).toBe(0);
    expect(read.out.length).toBeGreaterThan(20);
    const prompts = await run('prompts', 'everything');
    expect(prompts.out).toContain('/args-prompt city=… [state=…]');
    expect((await run('read', 'missing', 'x://y')).code).not.toBe(0);
  }, 60_000);
});
