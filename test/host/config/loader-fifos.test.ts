import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { collect, type HostRun, ONLY, scriptedEndpoints, spawnHost, workspace } from '../../helpers/run-host.js';
import type { SpawnOptions, Workspace } from '../../helpers/run-host.js';
import { isAlive, waitFor } from '../../helpers/wait.js';

// Every loader reads its files through the one safe reader (host/config/config-file.ts): a hooks file,
// the extension enablement file, a --policy file or an untrusted folder's settings that is a FIFO is
// refused and named, and the run goes on. On a FIFO with no writer a blocking read waits forever, so
// each run here is bounded: a hang fails the test by name instead of stalling the suite.

const mkfifo = (path: string) => execFileSync('mkfifo', [path]);

async function runBounded(args: string[], opts: SpawnOptions): Promise<HostRun> {
  const child = spawnHost(args, opts);
  const run = collect(child);
  try {
    await waitFor(() => child.exitCode !== null || child.signalCode !== null, `gemini-mcp ${args[0]} to exit`, 20_000);
  } finally {
    if (child.pid !== undefined && child.exitCode === null && isAlive(child.pid)) child.kill('SIGKILL');
  }
  return run.done;
}

function extension(ws: Workspace, name: string): string {
  const dir = join(ws.home, '.gemini', 'extensions', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'gemini-extension.json'), JSON.stringify({ name, version: '1.0.0' }));
  return dir;
}

describe('loaders never wait on a FIFO: they refuse it, name it and go on', () => {
  const endpoint = scriptedEndpoints();

  it("an extension's hooks/hooks.json that is a FIFO: -p answers and names the file", async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const hooks = join(extension(ws, 'hooked'), 'hooks');
    mkdirSync(hooks);
    mkfifo(join(hooks, 'hooks.json'));
    const ep = await endpoint(reply.text('answer'));
    const r = await runBounded(['-p', 'hi'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('answer');
    expect(r.stderr).toContain(`Refusing to read ${join(hooks, 'hooks.json')}: it is a named pipe (FIFO)`);
  }, 60_000);

  it('extension-enablement.json as a FIFO: extensions list and -p finish, the extension disabled and the file named', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    extension(ws, 'listed');
    const file = join(ws.home, '.gemini', 'extensions', 'extension-enablement.json');
    mkfifo(file);
    const why = `Refusing to read ${file}: it is a named pipe (FIFO); every extension stays disabled until it is fixed`;
    const list = await runBounded(['extensions', 'list'], { ws });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('✗ listed (1.0.0)');
    expect(list.stdout + list.stderr).toContain(why);
    const enable = await runBounded(['extensions', 'enable', 'listed'], { ws });
    expect(enable.code).toBe(1);
    expect(enable.stderr).toContain(`Refusing to read ${file}: it is a named pipe (FIFO)`);
    const ep = await endpoint(reply.text('answer'));
    const r = await runBounded(['-p', 'hi'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('answer');
    expect(r.stderr).toContain(why);
  }, 60_000);

  it('--policy naming a FIFO: the run answers and reports the policy file problem', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const fifo = join(ws.cwd, 'rules.toml');
    mkfifo(fifo);
    const ep = await endpoint(reply.text('answer'));
    const r = await runBounded(['-p', 'hi', '--policy', fifo], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('answer');
    expect(r.stderr).toContain(
      `Policy file problem (other files loaded): Refusing to read ${fifo}: it is a named pipe (FIFO)`,
    );
  }, 60_000);

  it("an untrusted folder's .gemini/settings.json that is a FIFO: -p and tools list finish, and say it was skipped", async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const file = join(ws.cwd, '.gemini', 'settings.json');
    mkdirSync(join(ws.cwd, '.gemini'));
    mkfifo(file);
    const why = `Refusing to read ${file}: it is a named pipe (FIFO)`;
    const ep = await endpoint(reply.text('answer'));
    const r = await runBounded(['-p', 'hi'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('answer');
    expect(r.stderr).toContain('This folder is not trusted');
    expect(r.stderr).toContain(why);
    const tools = await runBounded(['tools', 'list'], { ws });
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stderr).toContain(why);
  }, 60_000);
});
