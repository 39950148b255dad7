import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { resolveServers } from '../../../host/config/servers.js';
import { createHostRuntime, type HostRuntime } from '../../../host/core/runtime.js';
import { ToolRegistry } from '../../../host/tools/registry.js';
import { FAULT, fault, managerFactory } from './fault-harness.js';
import { tempDir } from '../../helpers/tmp.js';
import { textOf } from '../../helpers/mcp.js';
import { workspace } from '../scheduler/scheduler-workspace.js';

const manager = managerFactory([300, 300, 300]);

describe('restart gaps', () => {
  it('a crashed server keeps its tools registered while it restarts, and the next call waits and runs', async () => {
    const dir = tempDir();
    const m = manager([fault('f', dir)]);
    const registry = new ToolRegistry(m, {});
    await m.whenSettled();
    const pid = m.pid('f');
    await m.callTool('f', 'crash', {}).catch(() => undefined);
    expect(m.state('f')!.status).not.toBe('connected');
    // Right after the crash: still declared and dispatchable.
    expect(registry.get('f__echo')).toBeDefined();
    expect(textOf(await m.callTool('f', 'echo', { text: 'after the restart' }))).toBe('after the restart');
    expect(m.pid('f')).not.toBe(pid);
    registry.dispose();
  });

  it("a call waiting for a restart fails with that restart's error; the tools leave when the manager gives up", async () => {
    const dir = tempDir();
    const flag = join(dir, 'crash-on-start');
    const wrapper = join(dir, 'wrapper.mjs');
    writeFileSync(
      wrapper,
      `import { existsSync } from 'node:fs';\nif (existsSync(${JSON.stringify(flag)})) process.env.FAULT_CRASH_ON_START = '1';\nawait import(${JSON.stringify(FAULT)});\n`,
    );
    const m = manager([fault('f', dir, {}, { args: [wrapper] })]);
    const registry = new ToolRegistry(m, {});
    await m.whenSettled();
    writeFileSync(flag, '1');
    await m.callTool('f', 'crash', {}).catch(() => undefined);
    expect(registry.get('f__echo')).toBeDefined();
    const err = await m.callTool('f', 'echo', { text: 'x' }).catch((e) => e);
    expect(err.kind).toBe('not_connected');
    expect(err.message).toContain('could not be restarted');
    expect(err.message).toContain('refusing to start');
    await vi.waitFor(() => expect(m.state('f')!.status).toBe('failed'), { timeout: 30_000, interval: 50 });
    expect(registry.get('f__echo')).toBeUndefined();
    registry.dispose();
  });

  it('a cancelled call stops waiting for a restart', async () => {
    const dir = tempDir();
    const m = manager([fault('f', dir)], { restartBackoffMs: [60_000] });
    await m.whenSettled();
    await m.callTool('f', 'crash', {}).catch(() => undefined);
    const ac = new AbortController();
    const p = m.callTool('f', 'echo', { text: 'x' }, { signal: ac.signal }).catch((e) => e);
    ac.abort(new Error('user pressed Esc'));
    expect((await p).kind).toBe('cancelled');
  });
});

describe('a server that never answers initialize', () => {
  it('fails after its own timeout setting, with the reason, and does not hold the others', async () => {
    const dir = tempDir();
    const servers = resolveServers(
      {
        mcpServers: {
          silent: {
            command: process.execPath,
            args: [FAULT],
            env: { FAULT_STATE_DIR: dir, FAULT_NO_INIT: '1' },
            timeout: 1500,
          },
          good: { command: process.execPath, args: [FAULT], env: { FAULT_STATE_DIR: dir } },
        },
      },
      { cwd: dir, projectTempDir: dir, env: process.env },
    ).filter((s) => !s.builtIn);
    const m = manager(servers);
    // Well under the 30 s default: only the server's own timeout can settle it in time.
    await m.whenSettled(10_000);
    expect(m.state('good')!.status).toBe('connected');
    const silent = m.state('silent')!;
    expect(silent.status).toBe('failed');
    expect(silent.error).toMatch(/timed out/i);
  });

  it('whenReady lets the session start without it; it is reported as still connecting', async () => {
    const dir = tempDir();
    const m = manager([fault('silent', dir, { FAULT_NO_INIT: '1' }), fault('good', dir)], { startupGraceMs: 200 });
    const registry = new ToolRegistry(m, {});
    await m.whenReady();
    // The default connect bound is 30 s, so the silent server cannot have settled yet.
    expect(m.state('silent')!.status).toBe('connecting');
    await vi.waitFor(() => expect(m.state('good')!.status).toBe('connected'), { timeout: 30_000, interval: 50 });
    expect(registry.get('good__echo')).toBeDefined();
    registry.dispose();
    // Closing does not wait for the hung start-up either.
    const pending = m.close();
    const closed = await Promise.race([
      pending.then(() => 'closed'),
      new Promise((r) => setTimeout(r, 10_000, 'still waiting')),
    ]);
    expect(closed).toBe('closed');
  });
});

describe('runtime: a killed built-in server', () => {
  const { dir, env } = workspace(['shell']);
  let rt: HostRuntime;
  afterAll(() => rt?.close());

  it('the next shell call waits for the restart instead of "not found"', async () => {
    rt = await createHostRuntime({ cwd: dir, env, interactive: false, approvalMode: 'yolo' });
    await rt.manager.whenSettled();
    const pid = rt.manager.pid('shell')!;
    process.kill(pid, 'SIGKILL');
    await vi.waitFor(() => expect(rt.manager.state('shell')!.status).not.toBe('connected'), {
      timeout: 10_000,
      interval: 10,
    });
    const [call] = await rt.scheduler.schedule(
      [
        {
          callId: 'k1',
          name: 'shell__run_shell_command',
          args: { command: 'echo back-again' },
          isClientInitiated: false,
          promptId: 'p',
        },
      ],
      new AbortController().signal,
    );
    expect(call.response?.error ?? '').toBe('');
    expect(call.status).toBe('success');
    expect(JSON.stringify(call.response)).toContain('back-again');
  });
});
