import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../helpers/gemini-cli.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/**
 * `gemini-mcp mcp enable|disable <name>` as Gemini CLI 0.61's: the state lives in
 * ~/.gemini/mcp-server-enablement.json, a disabled server does not start (its tools are gone), and Gemini CLI
 * reads what we wrote. Before, `mcp enable` was an unknown mcp command.
 */
const IDLE = { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 1e9)'] };

/** With Echo, a server that never answers: only where nothing waits for it to start. */
function setUp(echo = false) {
  const ws = workspace();
  const mcpServers = echo ? { Echo: IDLE } : {};
  ws.settings({ ...ONLY('filesystem'), security: { folderTrust: { enabled: false } }, mcpServers });
  return { ws, file: join(ws.home, '.gemini', 'mcp-server-enablement.json') };
}

describe('gemini-mcp mcp enable|disable', () => {
  const endpoint = scriptedEndpoints();

  it('disable writes Gemini CLI file and the server does not start; enable brings it back', async () => {
    const { ws, file } = setUp();
    const ep = await endpoint();
    const opts = { ws, url: ep.url };
    const off = await runHost(['mcp', 'disable', 'filesystem'], opts);
    expect(off.code, off.stderr).toBe(0);
    expect(off.stdout).toBe("✓ MCP server 'filesystem' disabled.\n");
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ filesystem: { enabled: false } });
    const tools = await runHost(['-p', '/tools'], opts);
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).not.toContain('filesystem__');
    const on = await runHost(['mcp', 'enable', 'FileSystem'], opts);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toBe("✓ MCP server 'filesystem' enabled.\n");
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});
    const back = await runHost(['-p', '/tools'], opts);
    expect(back.stdout).toContain('filesystem__read_file');
    expect(ep.requests).toHaveLength(0);
  });

  it('an unknown name, or enabling a server mcp.excluded blocks, is an error that writes nothing', async () => {
    const { ws, file } = setUp();
    const ep = await endpoint();
    const unknown = await runHost(['mcp', 'disable', 'nope'], { ws, url: ep.url });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("Server 'nope' not found");
    const excluded = await runHost(['mcp', 'enable', 'shell'], { ws, url: ep.url });
    expect(excluded.code).toBe(1);
    expect(excluded.stderr).toContain('excluded by mcp.excluded');
    const usage = await runHost(['mcp', 'enable'], { ws, url: ep.url });
    expect(usage.code).toBe(42);
    expect(existsSync(file)).toBe(false);
    expect(ep.requests).toHaveLength(0);
  });

  it('Gemini CLI 0.61 sees the server we disabled as disabled', { timeout: 120_000 }, async () => {
    const { entry: GEMINI, why } = geminiCli();
    // CI reaches the npm registry, so a missing Gemini CLI there is a failure, not a skip.
    if (!GEMINI && !process.env.CI) return console.warn(`mcp-enable: Gemini CLI comparison skipped, ${why}`);
    expect(GEMINI, why).toBeDefined();
    const { ws } = setUp(true);
    const ep = await endpoint();
    expect((await runHost(['mcp', 'disable', 'Echo'], { ws, url: ep.url })).code).toBe(0);
    const ours = await runHost(['mcp', 'list'], { ws, url: ep.url });
    expect(ours.stdout).toContain('- Echo - Blocked: disabled (gemini-mcp mcp enable Echo)');
    const theirs = spawnSync(process.execPath, [GEMINI!, 'mcp', 'list'], {
      cwd: ws.cwd,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, HOME: ws.home, GEMINI_CLI_HOME: ws.home, GEMINI_CLI_TRUST_WORKSPACE: 'true' },
    });
    expect(theirs.status, theirs.stderr).toBe(0);
    // Gemini CLI prints its list through its debug logger, on stderr.
    expect(theirs.stdout + theirs.stderr).toMatch(/Echo: .* - Disabled/);
  });
});
