import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';
import { runHost, type Workspace } from '../../helpers/run-host.js';

const FAULT = join(import.meta.dirname, '../../fixtures/fault-server.mjs');

/** A Gemini CLI 0.61 settings file, unchanged, against our real servers. */
describe('Gemini CLI tool names in tools.core / tools.allowed / tools.exclude', () => {
  it('tools.core limits built-in and MCP tools alike; 0.61 names and mcp_<server>_<tool> are understood; allow rules count as listed', async () => {
    const root = tempDir('gmc-compat-');
    const home = join(root, 'home');
    const cwd = join(root, 'proj');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'notes.txt'), 'needle here\n');
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({
        mcp: { excluded: ['shell', 'web', 'memory'] },
        // A trusted server is limited by tools.core too (Gemini CLI's allowlist outranks trust).
        mcpServers: { fault: { command: process.execPath, args: [FAULT], trust: true } },
        tools: {
          core: ['grep_search', 'ReadFileTool', 'mcp_fault_echo'],
          allowed: ['fault__echo_env'],
          exclude: ['read_file'],
        },
      }),
    );
    const ws: Workspace = { home, cwd, settings: () => undefined, file: () => '' };
    const list = await runHost(['tools', 'list', '--json'], { ws });
    expect(list.code, list.stderr).toBe(0);
    const names = JSON.parse(list.stdout)
      .tools.map((t: { name: string }) => t.name)
      .sort();
    expect(names).toEqual(['fault__echo', 'fault__echo_env', 'filesystem__search_file_content']);
    const grep = await runHost(
      ['tools', 'call', 'filesystem__search_file_content', JSON.stringify({ pattern: 'needle' })],
      { ws },
    );
    expect(grep.code, grep.stderr).toBe(0);
    expect(grep.stdout).toContain('needle here');
    const refused = await runHost(['tools', 'call', 'fault__hang', '{}', '--yolo'], { ws });
    expect(refused.code).toBe(1);
  });
});
