import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { REPO } from '../../helpers/paths.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * The sandbox through the host, headless, with the scripted model: the shell server started
 * sandboxed by -s / GEMINI_SANDBOX / tools.sandbox, auto-approval, and a third-party stdio server
 * the host confines with `"sandbox": true`. Effects are checked outside.
 */

const SECRET = 'HOST-SECRET-91b2';
const hasBwrap = spawnSync('bwrap', ['--version']).status === 0;
const REF_FS = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

/** What the host sent back to the model as the result of the tool call(s). */
const functionResponses = (ep: ScriptedGemini) =>
  JSON.stringify(
    ep.requests
      .at(-1)
      ?.body?.contents?.at(-1)
      ?.parts?.map((p: { functionResponse?: unknown }) => p.functionResponse),
  );

describe.skipIf(!hasBwrap)('sandbox through the host (headless)', () => {
  const endpoint = scriptedEndpoints();
  const outside = tempDir('sbx-host-out-');

  const setup = (settings: Record<string, unknown>) => {
    const ws = workspace();
    ws.settings({ ...ONLY('shell'), ...settings });
    mkdirSync(join(ws.home, '.ssh'), { recursive: true });
    writeFileSync(join(ws.home, '.ssh/id_ed25519'), SECRET);
    return ws;
  };
  const shellCall = (name: string) =>
    reply.calls({
      id: 's1',
      name: 'shell__run_shell_command',
      args: { command: `echo x > ${outside}/${name}; cat ~/.ssh/id_ed25519; echo inside > ${name}.txt; echo ran` },
    });

  it('-s: the shell writes only in the workspace and cannot read the secret', async () => {
    const ws = setup({});
    const ep = await endpoint(shellCall('flag'), reply.text('done'));
    const r = await runHost(['-p', 'go', '-s', '-y'], { ws, url: ep.url, env: { HOME: ws.home } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(outside, 'flag'))).toBe(false);
    expect(existsSync(join(ws.cwd, 'flag.txt'))).toBe(true);
    const sent = functionResponses(ep);
    expect(sent).toContain('ran');
    expect(sent).not.toContain(SECRET);
  });

  it('GEMINI_SANDBOX=true does the same; without it the command runs unconfined (the control)', async () => {
    const ws = setup({});
    const ep = await endpoint(shellCall('env'), reply.text('done'));
    await runHost(['-p', 'go', '-y'], { ws, url: ep.url, env: { HOME: ws.home, GEMINI_SANDBOX: 'true' } });
    expect(existsSync(join(outside, 'env'))).toBe(false);
    expect(existsSync(join(ws.cwd, 'env.txt'))).toBe(true);

    const ep2 = await endpoint(shellCall('control'), reply.text('done'));
    await runHost(['-p', 'go', '-y'], { ws, url: ep2.url, env: { HOME: ws.home, GEMINI_SANDBOX: undefined } });
    expect(existsSync(join(outside, 'control'))).toBe(true);
  });

  it('a GEMINI_SANDBOX=0 written to the trusted workspace .env does not switch the sandbox off', async () => {
    const ws = setup({ tools: { sandbox: true }, security: { folderTrust: { enabled: false } } });
    writeFileSync(join(ws.cwd, '.env'), 'GEMINI_SANDBOX=0\n');
    const list = await runHost(['mcp', 'list'], { ws, env: { HOME: ws.home, GEMINI_SANDBOX: undefined } });
    expect(list.stdout).toMatch(/shell \(built-in, stdio, sandboxed\)/);
    // The real environment still may.
    const off = await runHost(['mcp', 'list'], { ws, env: { HOME: ws.home, GEMINI_SANDBOX: '0' } });
    expect(off.stdout).toMatch(/shell \(built-in, stdio\)/);
  });

  it('tools.sandboxAutoApprove lets a sandboxed command run without asking; without it headless denies', async () => {
    const auto = setup({ tools: { sandbox: true, sandboxAutoApprove: true } });
    const ep = await endpoint(shellCall('auto'), reply.text('done'));
    const r = await runHost(['-p', 'go'], { ws: auto, url: ep.url, env: { HOME: auto.home } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(auto.cwd, 'auto.txt'))).toBe(true);
    expect(existsSync(join(outside, 'auto'))).toBe(false);

    const asks = setup({ tools: { sandbox: true } });
    const ep2 = await endpoint(shellCall('asks'), reply.text('done'));
    await runHost(['-p', 'go'], { ws: asks, url: ep2.url, env: { HOME: asks.home } });
    expect(existsSync(join(asks.cwd, 'asks.txt'))).toBe(false);
  });

  it('a third-party stdio server confined by the host writes only where allowed; mcp list says so', async () => {
    // The reference filesystem server takes the host's roots (the project) as its allowed directories;
    // the sandbox then decides what it can really write.
    const refFs = (sandbox: unknown) => ({
      mcpServers: { fsx: { command: process.execPath, args: [REF_FS, '.'], ...(sandbox ? { sandbox } : {}) } },
      tools: { sandbox: true },
    });
    const write = (ws: { cwd: string }, ...names: string[]) =>
      reply.calls(
        ...names.map((n, i) => ({
          id: `w${i}`,
          name: 'fsx__write_file',
          args: { path: join(ws.cwd, n), content: 'x' },
        })),
      );

    const ws = setup(refFs({ allowWrite: ['allowed'] }));
    mkdirSync(join(ws.cwd, 'allowed'));
    const ep = await endpoint(write(ws, 'confined.txt', 'allowed/ok.txt'), reply.text('done'));
    await runHost(['-p', 'go', '-y'], { ws, url: ep.url, env: { HOME: ws.home } });
    expect(existsSync(join(ws.cwd, 'confined.txt'))).toBe(false);
    expect(existsSync(join(ws.cwd, 'allowed/ok.txt'))).toBe(true);
    expect(functionResponses(ep)).toMatch(/read-only|EROFS/i);

    const list = await runHost(['mcp', 'list'], { ws, env: { HOME: ws.home } });
    expect(list.stdout).toMatch(/fsx \(stdio: .*, sandboxed\) - Connected/);
    expect(list.stdout).toMatch(/shell \(built-in, stdio, sandboxed\)/);

    const open = setup(refFs(undefined));
    const ep2 = await endpoint(write(open, 'open.txt'), reply.text('done'));
    await runHost(['-p', 'go', '-y'], { ws: open, url: ep2.url, env: { HOME: open.home } });
    expect(existsSync(join(open.cwd, 'open.txt'))).toBe(true);
  });

  it('a server asked to run sandboxed does not start unconfined when bubblewrap is missing', async () => {
    const ws = setup({ mcpServers: { fsx: { command: process.execPath, args: [REF_FS, '.'], sandbox: true } } });
    const bin = tempDir('sbx-nobwrap-');
    const list = await runHost(['mcp', 'list'], { ws, env: { HOME: ws.home, PATH: bin } });
    expect(list.stdout).toMatch(/fsx .*Failed[\s\S]*bubblewrap/);
  });
});
