import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { META } from '../../../protocol/meta.js';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { isRunning, liveGroupMembers } from './procs.js';

/**
 * Background jobs through the real shell server over stdio: `run_shell_command` with `is_background`
 * answers with the pid while the job runs on, and Gemini CLI 0.61's `list_background_processes` /
 * `read_background_output` plus our `kill_background_process` see and stop it.
 */
describe('shell server: background jobs', () => {
  const root = tempDir('shell-bg-');

  const pidOf = (text: string) => Number(/Command is running in background\. PID: (\d+)\./.exec(text)?.[1]);

  it('starts a job, answers at once with its pid, lists it, reads its output and stops its whole group', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    try {
      // A job that prints a line, starts a child of its own and keeps going for 30 s.
      const command = 'echo first; sleep 30 & for i in 1 2 3; do echo tick $i; done; echo second >&2; sleep 30';
      const r = await srv.call('run_shell_command', { command, is_background: true });
      const text = textOf(r);
      expect(r.isError).toBeFalsy();
      expect(text).toMatch(/^<untrusted_context>\nCommand is running in background\. PID: \d+\. Initial output:\n/);
      const pid = pidOf(text);
      expect(isRunning(pid)).toBe(true);
      await waitFor(() => liveGroupMembers(pid).length >= 2, 'the job and its own child to run');

      expect(textOf(await srv.call('list_background_processes', {}))).toBe(`- [PID ${pid}] RUNNING: \`${command}\``);

      await waitFor(
        async () => textOf(await srv.call('read_background_output', { pid })).includes('second'),
        'the job to print its last line',
      );
      const out = textOf(await srv.call('read_background_output', { pid }));
      expect(out).toBe(
        '<untrusted_context>\nFull Log Output:\nfirst\ntick 1\ntick 2\ntick 3\nsecond\n</untrusted_context>',
      );
      const tail = textOf(await srv.call('read_background_output', { pid, lines: 2 }));
      expect(tail).toBe('<untrusted_context>\nShowing last 2 of 5 lines:\ntick 3\nsecond\n</untrusted_context>');

      const stop = await srv.call('kill_background_process', { pid });
      expect(stop.isError).toBeFalsy();
      expect(textOf(stop)).toBe(`Stopped background process ${pid} (\`${command}\`) and every process it started.`);
      expect(liveGroupMembers(pid)).toEqual([]);
      await waitFor(
        async () => textOf(await srv.call('list_background_processes', {})).includes('EXITED'),
        'the list to show the job ended',
      );
      expect(textOf(await srv.call('list_background_processes', {}))).toBe(
        `- [PID ${pid}] EXITED: \`${command}\` (Signal: 15)`,
      );
      expect(textOf(await srv.call('kill_background_process', { pid }))).toBe(
        `Background process ${pid} (\`${command}\`) had already exited.`,
      );
    } finally {
      await srv.close();
    }
  });

  it('a command that ends within the moment gets the ordinary result and is not listed; unknown pids are refused', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    try {
      const r = textOf(
        await srv.call('run_shell_command', { command: 'echo quick; exit 3', is_background: true, delay_ms: 5000 }),
      );
      expect(r).toMatch(
        /^<untrusted_context>\nOutput: quick\nExit Code: 3\nProcess Group PGID: \d+\n<\/untrusted_context>$/,
      );
      expect(textOf(await srv.call('list_background_processes', {}))).toBe('No background processes found.');
      for (const tool of ['read_background_output', 'kill_background_process']) {
        const bad = await srv.call(tool, { pid: 1 });
        expect(bad.isError).toBe(true);
        expect(textOf(bad)).toBe("Access denied. Background process ID 1 not found in this session's history.");
      }
    } finally {
      await srv.close();
    }
  });

  it('refuses a job beyond --max-jobs running at once, and takes one again once a job is stopped', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root, '--max-jobs', '1'] });
    try {
      const first = pidOf(textOf(await srv.call('run_shell_command', { command: 'sleep 30', is_background: true })));
      const refused = await srv.call('run_shell_command', { command: 'sleep 31', is_background: true });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('Error: Too many background processes are running (1); stop one first.');
      await srv.call('kill_background_process', { pid: first });
      await waitFor(
        async () => textOf(await srv.call('list_background_processes', {})).includes('EXITED'),
        'the first job to be seen ended',
      );
      const again = textOf(await srv.call('run_shell_command', { command: 'sleep 32', is_background: true }));
      expect(again).toContain('Command is running in background. PID: ');
    } finally {
      await srv.close();
    }
  });

  it("asking first says the command runs in the background (the confirmation's detail and text)", async () => {
    const asked: { message: string; detail: Record<string, unknown> }[] = [];
    const srv = await startStdioServer(ENTRY.shell, {
      args: ['--root', root],
      elicit: (params) => {
        const meta = params._meta as Record<string, Record<string, unknown>>;
        asked.push({ message: params.message, detail: meta[META.confirmation]! });
        return { action: 'accept', content: { decision: 'proceed_once' } };
      },
    });
    try {
      const text = textOf(await srv.call('run_shell_command', { command: 'sleep 30', is_background: true }));
      expect(asked).toHaveLength(1);
      expect(asked[0]!.detail).toMatchObject({ kind: 'exec', command: 'sleep 30', background: true });
      expect(asked[0]!.message).toContain(
        '\nRuns in the background: it keeps running after this call, until stopped or the session ends.',
      );
      await srv.call('kill_background_process', { pid: pidOf(text) });
      await srv.call('run_shell_command', { command: 'true' });
      expect(asked[1]!.detail.background).toBeUndefined();
    } finally {
      await srv.close();
    }
  });

  it('keeps only the tail of a chatty job and says how much was dropped', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    try {
      // Nearly 3 MB of output, then the job waits.
      const command = 'seq 1 400000; echo done-printing; sleep 30';
      const pid = pidOf(textOf(await srv.call('run_shell_command', { command, is_background: true })));
      await waitFor(
        async () => textOf(await srv.call('read_background_output', { pid, lines: 1 })).includes('done-printing'),
        'the job to finish printing',
      );
      const out = textOf(await srv.call('read_background_output', { pid, lines: 3 }));
      const dropped = Number(
        /\[(\d+) earlier characters of output were dropped; only the last ones are kept\.\]/.exec(out)?.[1],
      );
      // seq 1 400000 prints 2,688,895 characters and the marker 14 more; the job keeps the last 256,000.
      expect(dropped).toBe(2_688_909 - 256_000);
      expect(out).toMatch(/Showing last 3 of \d+ lines:\n399999\n400000\ndone-printing\n/);
      await srv.call('kill_background_process', { pid });
    } finally {
      await srv.close();
    }
  });

  it('closing the connection ends every job with its whole group', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    const serverPid = srv.pid()!;
    const text = textOf(await srv.call('run_shell_command', { command: 'sleep 30 & sleep 30', is_background: true }));
    const pid = pidOf(text);
    await waitFor(() => liveGroupMembers(pid).length === 3, 'bash and both sleeps to run');
    await srv.close();
    await waitFor(() => !isRunning(serverPid), 'the server to exit');
    await waitFor(() => liveGroupMembers(pid).length === 0, 'the job to be gone');
  });

  it('SIGKILL of the server still ends its jobs', async () => {
    const srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
    const serverPid = srv.pid()!;
    const pid = pidOf(
      textOf(await srv.call('run_shell_command', { command: 'sleep 30 & sleep 30', is_background: true })),
    );
    await waitFor(() => liveGroupMembers(pid).length === 3, 'bash and both sleeps to run');
    process.kill(serverPid, 'SIGKILL');
    await waitFor(() => liveGroupMembers(pid).length === 0, 'the job to be gone');
    await srv.close().catch(() => undefined);
  });

  it.skipIf(spawnSync('bwrap', ['--version']).status !== 0)(
    'with --sandbox a job runs confined: it writes in the workspace only, and stops with its group',
    async () => {
      const base = tempDir('shell-bg-sbx-');
      const ws = join(base, 'ws');
      const outside = join(base, 'outside');
      for (const d of [ws, outside]) mkdirSync(d, { recursive: true });
      const srv = await startStdioServer(ENTRY.shell, { args: ['--root', ws, '--sandbox'] });
      try {
        const command = `touch inside.txt; touch ${outside}/escaped.txt; echo tried; sleep 30`;
        const pid = pidOf(textOf(await srv.call('run_shell_command', { command, is_background: true })));
        expect(pid).toBeGreaterThan(1);
        await waitFor(
          async () => textOf(await srv.call('read_background_output', { pid })).includes('tried'),
          'the job to try both writes',
        );
        expect(textOf(await srv.call('read_background_output', { pid }))).toMatch(
          /escaped\.txt.*Read-only file system/,
        );
        expect(existsSync(join(ws, 'inside.txt'))).toBe(true);
        expect(existsSync(join(outside, 'escaped.txt'))).toBe(false);
        expect(textOf(await srv.call('kill_background_process', { pid }))).toContain('Stopped background process');
        expect(liveGroupMembers(pid)).toEqual([]);
      } finally {
        await srv.close();
      }
    },
  );
});
