import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpWorld } from './mcp-world.js';

const FAULT = join(import.meta.dirname, '../../fixtures/fault-server.mjs');

const setup = () => mcpWorld('gmc-import-');

describe('mcp import', () => {
  it("claude-desktop: user scope by default, keeps the settings file's comments, reports names, built-ins and dropped fields", async () => {
    const t = setup();
    t.write(
      t.userFile,
      '{\n  // my model\n  "model": { "name": "gemini-2.5-pro" },\n  "mcp": { "excluded": ["shell", "web", "memory"] }\n}\n',
    );
    t.write(
      join(t.home, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({
        mcpServers: {
          filesystem: { command: process.execPath, args: [FAULT] },
          'brave.search': {
            command: process.execPath,
            args: [FAULT],
            env: { BRAVE_API_KEY: 'k' },
            disabled: false,
            autoApprove: [],
          },
          broken: { args: ['x'] },
        },
      }),
    );
    const r = await t.run('import', '--from', 'claude-desktop');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`into user settings (${t.userFile})`);
    expect(r.out).toContain(`+ brave.search: stdio ${process.execPath} ${FAULT}`);
    expect(r.out).toContain('not carried over (no equivalent here): disabled, autoApprove');
    expect(r.out).toContain('! broken: skipped, neither "command" nor "url"');
    expect(r.out).toContain('Its tools are named brave_search__<tool>');
    expect(r.out).toContain('"filesystem" replaces the built-in filesystem server');
    expect(r.out).toContain('2 servers imported.');
    const text = readFileSync(t.userFile, 'utf8');
    expect(text).toContain('// my model');
    expect(text.indexOf('"model"')).toBeLessThan(text.indexOf('"mcpServers"'));
    expect(JSON.parse(text.replace('// my model', '')).mcpServers['brave.search']).toEqual({
      command: process.execPath,
      args: [FAULT],
      env: { BRAVE_API_KEY: 'k' },
    });

    // The imported servers are real and start under their names.
    const list = await t.run('list');
    expect(list.out).toMatch(/✓ filesystem \[replaces the built-in;.*\] .* - Connected, 11 tools/);
    expect(list.out).toMatch(/✓ brave\.search \[tools: brave_search__\*\] .* - Connected/);

    // A second import keeps what is configured unless asked to replace it.
    const again = await t.run('import', '--from', 'claude-desktop', '--dry-run');
    expect(again.out).toContain('= filesystem: already configured, kept as it is');
    expect(again.out).toContain('0 servers would be imported.');
  });

  it('claude-code, cursor and vscode: transports, ${env:…}, inputs and ${workspaceFolder}, project scope by default', async () => {
    const t = setup();
    t.write(
      join(t.project, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' } },
          events: { type: 'sse', url: 'https://example.com/sse' },
        },
      }),
    );
    const cc = await t.run('import', '--from', 'claude-code');
    expect(cc.code, cc.err).toBe(0);
    expect(cc.out).toContain('This folder is not trusted yet');
    const proj = () => JSON.parse(readFileSync(t.projectFile, 'utf8')).mcpServers;
    expect(proj().remote).toEqual({
      httpUrl: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer ${API_TOKEN}' },
    });
    expect(proj().events).toEqual({ url: 'https://example.com/sse', type: 'sse' });

    t.write(
      join(t.project, '.cursor', 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          gh: { command: 'npx', args: ['-y', 'gh-mcp'], env: { TOKEN: '${env:GH_TOKEN}' } },
          web: { url: 'http://127.0.0.1:9/mcp' },
        },
      }),
    );
    const cursor = await t.run('import', '--from', 'cursor');
    expect(cursor.code, cursor.err).toBe(0);
    expect(proj().gh.env).toEqual({ TOKEN: '${GH_TOKEN}' });
    expect(proj().web).toEqual({ url: 'http://127.0.0.1:9/mcp' });
    expect(cursor.out).toContain('Streamable HTTP is tried first, then SSE');

    t.write(
      join(t.project, '.vscode', 'mcp.json'),
      `{
  // VS Code allows comments and trailing commas
  "inputs": [{ "type": "promptString", "id": "api-key", "description": "Search API key", "password": true }],
  "servers": {
    "search": { "type": "stdio", "command": "search-mcp", "args": ["--root", "\${workspaceFolder}"], "env": { "KEY": "\${input:api-key}" }, },
  },
}`,
    );
    const vs = await t.run('import', '--from', 'vscode', '--scope', 'user');
    expect(vs.code, vs.err).toBe(0);
    const user = JSON.parse(readFileSync(t.userFile, 'utf8')).mcpServers;
    expect(user.search).toEqual({ command: 'search-mcp', args: ['--root', t.project], env: { KEY: '${API_KEY}' } });
    expect(vs.out).toContain('set API_KEY in your environment (VS Code asked: "Search API key")');
  });

  it('bad sources and arguments are clear errors that write nothing', async () => {
    const t = setup();
    expect((await t.run('import')).code).toBe(42);
    expect((await t.run('import', '--from', 'emacs')).err).toContain('--from claude-desktop|claude-code|cursor|vscode');
    const none = await t.run('import', '--from', 'cursor');
    expect(none.err).toContain('No cursor configuration found');
    t.write(join(t.project, '.mcp.json'), '{ "mcpServers": ');
    const bad = await t.run('import', '--from', 'claude-code');
    expect(bad.code).toBe(52);
    expect(bad.err).toContain('.mcp.json');
  });
});

describe("mcp add / remove keep the user's file", () => {
  it('comments, key order and indentation survive add, update and remove', async () => {
    const t = setup();
    const original =
      '{\n    // four-space indent, comments\n    "model": { "name": "x" }, /* trailing */\n    "mcpServers": {\n        // the one I use\n        "keep": { "command": "a" }\n    }\n}\n';
    t.write(t.userFile, original);
    expect((await t.run('add', '-s', 'user', 'new', 'cmd', 'arg')).code).toBe(0);
    let text = readFileSync(t.userFile, 'utf8');
    expect(text).toContain('// four-space indent, comments');
    expect(text).toContain('/* trailing */');
    expect(text).toContain('// the one I use');
    expect(text).toContain('\n        "new": {\n            "command": "cmd"');
    expect((await t.run('remove', '-s', 'user', 'new')).code).toBe(0);
    text = readFileSync(t.userFile, 'utf8');
    expect(text).toContain('// the one I use');
    expect(text).not.toContain('"new"');
  });
});
