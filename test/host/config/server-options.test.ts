import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGeminiCliAccepts } from '../../helpers/gemini-cli.js';
import { REPO } from '../../helpers/paths.js';
import { runHost, workspace } from '../../helpers/run-host.js';

const REF_MEMORY = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const REF_FS = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

describe('mcpServerOptions: our server options where Gemini CLI accepts them', () => {
  it('replaceBuiltin given there silences the notice, an untrusted workspace cannot set it, and Gemini CLI 0.61 starts cleanly on the file', {
    timeout: 120_000,
  }, async () => {
    const ws = workspace();
    ws.settings({
      mcp: { excluded: ['shell', 'web'] },
      mcpServers: {
        memory: { command: process.execPath, args: [REF_MEMORY], env: { MEMORY_FILE_PATH: '/dev/null' } },
        filesystem: { command: process.execPath, args: [REF_FS, '/tmp'] },
      },
      mcpServerOptions: { memory: { replaceBuiltin: true }, nowhere: { startup: 'eager' } },
    });
    // The folder (not trusted) tries to silence the other one.
    mkdirSync(join(ws.cwd, '.gemini'));
    writeFileSync(
      join(ws.cwd, '.gemini', 'settings.json'),
      JSON.stringify({ mcpServerOptions: { filesystem: { replaceBuiltin: true } } }),
    );
    const tools = await runHost(['tools', 'list', '--json'], { ws });
    expect(tools.code, tools.stderr).toBe(0);
    const names: string[] = JSON.parse(tools.stdout).tools.map((t: { name: string }) => t.name);
    expect(names).toContain('memory__create_entities'); // the reference server took the built-in's place
    const notices = tools.stderr.split('\n').filter((l) => l.includes('replaces the built-in'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('"filesystem"');
    expect(notices[0]).not.toContain('"memory"');
    const mcp = await runHost(['mcp', 'list'], { ws });
    expect(mcp.stdout).toMatch(/✓ memory \[replaces the built-in\] /);
    expectGeminiCliAccepts(ws.home, ws.cwd, /Invalid configuration|Error in:|Unrecognized key/);
  });
});
