import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { textOf, type StdioServer } from '../helpers/mcp.js';
import { tempDir } from '../helpers/tmp.js';
import { CALL, DISCOVER, FIXTURES, startBridge } from './bridge.js';
import { waitFor } from '../helpers/wait.js';

const project = tempDir('bridge-calls-');
let srv: StdioServer;
beforeAll(async () => {
  srv = await startBridge(`${DISCOVER} bare`, ['--timeout-s', '3'], project);
});
afterAll(() => srv?.close());

/** Live (non-zombie) members of a process group, read from /proc. */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return members;
}

async function sleepyPids(pidfile: string): Promise<{ leader: number; helper: number }> {
  await waitFor(() => existsSync(pidfile), 'the sleepy tool to start');
  const [leader, helper] = readFileSync(pidfile, 'utf8').trim().split(' ').map(Number);
  return { leader, helper };
}

describe('successful calls', () => {
  it('passes the name as argv and the arguments as JSON on stdin; stdout is the result', async () => {
    const r = await srv.call('hello', { who: 'bob' });
    expect(r.isError).toBeFalsy();
    expect(r.content).toEqual([{ type: 'text', text: 'hello bob\n' }]);
  });

  it('runs in the project root and hands over nested arguments unchanged (node fixture)', async () => {
    const r = await srv.call('echo', { n: 1, nested: { list: ['a', null] } });
    expect(JSON.parse(textOf(r))).toEqual({
      tool: 'echo',
      args: { n: 1, nested: { list: ['a', null] } },
      cwd: project,
    });
  });
});

describe('failures in the reference format', () => {
  it('treats stderr output with exit 0 as an error', async () => {
    const r = await srv.call('stderr0', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Stdout: looks fine\n\nStderr: but warned\n\nError: (none)\nExit Code: 0\nSignal: (none)');
    expect(r._meta?.['dev.gemini-mcp-cli/errorType']).toBe('discovered_tool_execution_error');
  });

  it('reports a non-zero exit with both streams verbatim', async () => {
    const r = await srv.call('fail3', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Stdout: partial out\n\nStderr: bad things\n\nError: (none)\nExit Code: 3\nSignal: (none)');
  });

  it('reports the signal name when a signal ends the command', async () => {
    const r = await srv.call('selfkill', {});
    expect(textOf(r)).toBe(
      'Stdout: about to die\n\nStderr: (empty)\nError: (none)\nExit Code: (none)\nSignal: SIGTERM',
    );
  });

  it.each([
    ['huge', 'stdout'],
    ['hugeerr', 'stderr'],
  ])('%s: output over 10 MB on %s kills the command and reports it within bounds', async (tool, stream) => {
    const r = await srv.call(tool, {});
    expect(r.isError).toBe(true);
    const text = textOf(r);
    expect(text).toContain(
      `Error: Tool call command ${stream} exceeded size limit of 10485760 bytes; its process group was killed.`,
    );
    expect(text).toMatch(/\nExit Code: \(none\)\nSignal: SIG(TERM|PIPE)$/);
    expect(text).toContain('more bytes omitted');
    expect(text.length).toBeLessThan(7 * 1024 * 1024);
  });

  it('rejects arguments that do not match the schema before running anything', async () => {
    const r = await srv.call('hello', { who: 7 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Invalid arguments for tool "hello": params/who must be string');
  });

  it('answers an unknown tool with an error result', async () => {
    const r = await srv.call('nope', {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Tool "nope" not found among the discovered tools.');
  });

  it('accepts a call command path with spaces whole, and "PROGRAM ARGS" split', async () => {
    mkdirSync(join(project, 'my tools'));
    symlinkSync(CALL, join(project, 'my tools', 'call tool'));
    const spaced = await startBridge(`${DISCOVER} bare`, ['--call-command', join(project, 'my tools', 'call tool')]);
    const split = await startBridge(
      `${DISCOVER} bare`,
      ['--call-command', `node ${join(FIXTURES, 'call.mjs')}`],
      project,
    );
    try {
      expect(textOf(await spaced.call('hello', { who: 'space' }))).toBe('hello space\n');
      expect(JSON.parse(textOf(await split.call('echo', { a: 1 })))).toMatchObject({ tool: 'echo', args: { a: 1 } });
    } finally {
      await Promise.all([spaced.close(), split.close()]);
    }
  });

  it('reports a call command that cannot be started', async () => {
    const other = await startBridge(`${DISCOVER} bare`, ['--call-command', '/no/such/call'], project);
    try {
      const r = await other.call('stderr0', {});
      expect(textOf(r)).toBe(
        'Stdout: (empty)\nStderr: (empty)\nError: spawn /no/such/call ENOENT\nExit Code: (none)\nSignal: (none)',
      );
    } finally {
      await other.close();
    }
  });
});

describe('timeout and cancellation kill the process group', () => {
  it('times out, kills the command and its helper, and says so', async () => {
    const pidfile = join(project, 'timeout.pids');
    const pending: Promise<CallToolResult> = srv.call('sleepy', { pidfile });
    const { leader, helper } = await sleepyPids(pidfile);
    expect(groupMembers(leader)).toContain(helper);
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'Stdout: (empty)\nStderr: (empty)\nError: Tool call timed out after 3 seconds; its process group was killed.\n' +
        'Exit Code: (none)\nSignal: SIGTERM',
    );
    await waitFor(() => groupMembers(leader).length === 0, `process group ${leader} to be gone`);
  });

  it('kills the process group when the client cancels the request', async () => {
    const pidfile = join(project, 'cancel.pids');
    const abort = new AbortController();
    const pending = srv.client.callTool({ name: 'sleepy', arguments: { pidfile } }, undefined, {
      signal: abort.signal,
    });
    const { leader, helper } = await sleepyPids(pidfile);
    expect(groupMembers(leader)).toEqual(expect.arrayContaining([leader, helper]));
    abort.abort('user pressed Esc');
    await expect(pending).rejects.toThrow();
    // Well before the 3 s timeout would have fired on its own (no timing assertion: just gone).
    await waitFor(() => groupMembers(leader).length === 0, `process group ${leader} to be gone`);
    // The bridge keeps serving after a cancellation.
    expect(textOf(await srv.call('hello', { who: 'again' }))).toBe('hello again\n');
  });

  it('kills running calls when the client closes the session', async () => {
    const other = await startBridge(`${DISCOVER} bare`, [], project);
    const pidfile = join(project, 'close.pids');
    const pending = other.call('sleepy', { pidfile }).catch((err: Error) => err);
    const { leader } = await sleepyPids(pidfile);
    await other.close();
    expect(await pending).toBeInstanceOf(Error);
    await waitFor(() => groupMembers(leader).length === 0, `process group ${leader} to be gone`);
  });
});
