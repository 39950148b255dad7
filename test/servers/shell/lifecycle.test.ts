import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { isRunning, liveGroupMembers } from './procs.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * Every way a command can be stopped must end its whole process group, background children
 * included: each case starts `sleep 100 &` inside the command and checks /proc afterwards.
 */
const TOOL = 'run_shell_command';
// Prints the group id ($$ is the leader, whose pid is the PGID) and then keeps the group busy.
const BUSY = 'sleep 100 & echo "pgid=$$"; sleep 100';

describe('run_shell_command: stopping process groups', () => {
  const root = tempDir('shell-life-');

  /** Starts BUSY and resolves with its PGID once it printed it (via progress notifications). */
  async function startBusy(srv: Awaited<ReturnType<typeof startStdioServer>>, signal?: AbortSignal) {
    let pgid = 0;
    const call = srv.client.callTool({ name: TOOL, arguments: { command: BUSY } }, undefined, {
      signal,
      timeout: 120_000,
      onprogress: (p) => {
        const m = /pgid=(\d+)/.exec(p.message ?? '');
        if (m) pgid = Number(m[1]);
      },
    });
    call.catch(() => undefined);
    await waitFor(() => pgid > 0, 'the command to start');
    await waitFor(() => liveGroupMembers(pgid).length >= 2, 'both sleeps to run');
    return { pgid, call };
  }

  it('inactivity timeout kills the group and says so', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root, '--timeout-s', '1'] });
    try {
      const silent = textOf(await srv.call(TOOL, { command: 'sleep 5' }));
      expect(silent).toBe(
        '<untrusted_context>\nCommand was automatically cancelled because it exceeded the timeout of 0.0 minutes without output. ' +
          'There was no output before it was cancelled.\n</untrusted_context>',
      );
      const r = textOf(await srv.call(TOOL, { command: BUSY }));
      expect(r).toContain('without output. Below is the output before it was cancelled:\npgid=');
      const pgid = Number(/pgid=(\d+)/.exec(r)![1]);
      expect(liveGroupMembers(pgid)).toEqual([]);
    } finally {
      await srv.close();
    }
  });

  it('MCP cancellation kills the group, background children included', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    try {
      const ac = new AbortController();
      const { pgid, call } = await startBusy(srv, ac.signal);
      ac.abort();
      await expect(call).rejects.toThrow();
      await waitFor(() => liveGroupMembers(pgid).length === 0, 'the group to be gone');
      // The server is still serving.
      expect(textOf(await srv.call(TOOL, { command: 'echo alive' }))).toContain('Output: alive');
    } finally {
      await srv.close();
    }
  });

  it('SIGTERM of the server kills running groups before it exits', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    const serverPid = srv.pid()!;
    const { pgid } = await startBusy(srv);
    process.kill(serverPid, 'SIGTERM');
    await waitFor(() => !isRunning(serverPid), 'the server to exit');
    expect(liveGroupMembers(pgid)).toEqual([]);
    await srv.close().catch(() => undefined);
  });

  it('client disconnect kills running commands and leftover background jobs', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    const serverPid = srv.pid()!;
    const done = textOf(await srv.call(TOOL, { command: 'sleep 100 & echo started' }));
    const bgGroup = Number(/Process Group PGID: (\d+)/.exec(done)![1]);
    const bg = Number(/Background PIDs: (\d+)/.exec(done)![1]);
    expect(isRunning(bg)).toBe(true);
    const { pgid } = await startBusy(srv);
    await srv.close();
    await waitFor(() => !isRunning(serverPid), 'the server to exit');
    expect(liveGroupMembers(pgid)).toEqual([]);
    expect(liveGroupMembers(bgGroup)).toEqual([]);
  });

  it('SIGKILL of the server still ends its commands and their background jobs', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    const serverPid = srv.pid()!;
    const done = textOf(await srv.call(TOOL, { command: 'sleep 100 & echo started' }));
    const bgGroup = Number(/Process Group PGID: (\d+)/.exec(done)![1]);
    const { pgid } = await startBusy(srv);
    expect(liveGroupMembers(bgGroup).length).toBe(1);
    process.kill(serverPid, 'SIGKILL');
    await waitFor(() => !isRunning(serverPid), 'the server to die');
    // Nothing of either command may outlive the server: its watcher ends the groups.
    await waitFor(
      () => liveGroupMembers(pgid).length === 0 && liveGroupMembers(bgGroup).length === 0,
      'the groups to be gone',
    );
    await srv.close().catch(() => undefined);
  });

  it('commands share one watcher, which leaves with the server', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    let watchers: number[] = [];
    try {
      const serverPid = srv.pid()!;
      for (let i = 0; i < 5; i++)
        expect(textOf(await srv.call(TOOL, { command: `echo run-${i}` }))).toContain(`run-${i}`);
      watchers = watchersOf(serverPid);
      expect(watchers).toHaveLength(1);
    } finally {
      await srv.close();
    }
    await waitFor(() => !isRunning(watchers[0]!), 'the watcher to exit');
  });
});

describe('run_shell_command: the watcher', () => {
  const root = tempDir('shell-watcher-');

  it('a watcher that was killed is replaced, and the new one still ends the groups when the server dies', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    const serverPid = srv.pid()!;
    const first = textOf(await srv.call(TOOL, { command: 'sleep 100 & echo first' }));
    const firstGroup = Number(/Process Group PGID: (\d+)/.exec(first)![1]);
    const [watcher] = watchersOf(serverPid);
    process.kill(watcher!, 'SIGKILL');
    await waitFor(() => !isRunning(watcher!), 'the watcher to die');
    const second = textOf(await srv.call(TOOL, { command: 'sleep 100 & echo second' }));
    const secondGroup = Number(/Process Group PGID: (\d+)/.exec(second)![1]);
    expect(watchersOf(serverPid)).toHaveLength(1);
    process.kill(serverPid, 'SIGKILL');
    await waitFor(() => !isRunning(serverPid), 'the server to die');
    await waitFor(
      () => liveGroupMembers(firstGroup).length === 0 && liveGroupMembers(secondGroup).length === 0,
      'both groups to be gone',
    );
    await srv.close().catch(() => undefined);
  });
});

/** Watcher processes (`sh -c … gemini-mcp-shell-watch`) whose parent is the server. */
function watchersOf(serverPid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'latin1');
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (cmd.includes('gemini-mcp-shell-watch') && ppid === serverPid) out.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}
