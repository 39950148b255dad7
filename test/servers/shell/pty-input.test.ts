import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { META } from '../../../protocol/meta.js';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, type StdioServer, textOf } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';

const TOOL = 'run_shell_command';
const PROMPT_COMMAND = 'read -p "Project name: " n && echo "created $n" > out.txt && echo "done $n"';
const hasBwrap = spawnSync('bwrap', ['--version']).status === 0;

/** A call with the terminal `_meta`: its output streams as raw bytes with the pid to type into. */
function callInTerminal(srv: StdioServer, command: string) {
  let pid: number | undefined;
  let raw = '';
  const messages: string[] = [];
  const result = srv.client.request(
    {
      method: 'tools/call',
      params: { name: TOOL, arguments: { command }, _meta: { [META.terminal]: { cols: 80, rows: 24 } } },
    },
    CallToolResultSchema,
    {
      timeout: 120_000,
      onprogress: (p) => {
        const out = (p as { _meta?: Record<string, { pid: number; data: string }> })._meta?.[META.terminalOutput];
        if (out) {
          pid = out.pid;
          raw += out.data;
        }
        if (p.message) messages.push(p.message);
      },
    },
  ) as Promise<CallToolResult>;
  return { result, pid: () => pid, raw: () => raw, messages };
}

/**
 * Another MCP client (the SDK's) that says a person is at a terminal: the shell server runs the command in
 * a pseudo-terminal, streams what it prints, and `write_to_shell` answers its prompt. Without the terminal
 * `_meta` the same command is stopped as one that wants input.
 */
describe.skipIf(process.platform !== 'linux')('run_shell_command in a terminal, typed into with write_to_shell', () => {
  const root = tempDir('shell-pty-');
  let srv: StdioServer;

  beforeAll(async () => {
    srv = await startStdioServer(ENTRY.shell, { args: ['--root', root] });
  });
  afterAll(() => srv?.close());

  it('answers a prompt: the file is written, the result has the screen text and exit code 0', async () => {
    const call = callInTerminal(srv, PROMPT_COMMAND);
    await waitFor(() => call.raw().includes('Project name: '), 'the prompt', 30_000);
    expect(call.messages.join('')).toContain('Project name: ');
    const typed = await srv.call('write_to_shell', { pid: call.pid()!, input: 'demo\r' });
    expect(typed.isError).toBeFalsy();
    const r = await call.result;
    expect(r.isError).toBeFalsy();
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('created demo\n');
    const text = textOf(r);
    expect(text).toContain('Output: Project name: demo\ndone demo');
    expect(text).not.toContain('Exit Code');
    expect(r._meta?.[META.shellOutcome]).toMatchObject({ exitCode: 0 });
  });

  it('renders carriage-return progress as the last state the user saw', async () => {
    const r = await callInTerminal(srv, 'printf "10%%\\r50%%\\r100%%\\n"; exit 3').result;
    expect(textOf(r)).toContain('Output: 100%\nExit Code: 3');
  });

  it('output longer than the emulator keeps reaches the model whole (its start too), as with pipes', async () => {
    const text = textOf(await callInTerminal(srv, 'seq 1 20000').result);
    expect(text).toMatch(/Output: 1\n2\n3\n4\n/);
    expect(text).toMatch(/\n20000\n/);
  });

  it('write_to_shell on a pid that is no terminal command of this session: a clear error', async () => {
    const r = await srv.call('write_to_shell', { pid: process.pid, input: 'x' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(`No command of this session with PID ${process.pid} is running in a terminal`);
  });

  it('without the terminal _meta the same command fails fast as one that wants input', async () => {
    const r = await srv.call(TOOL, { command: PROMPT_COMMAND });
    expect(textOf(r)).toContain('Command was stopped because it wanted input: `bash`');
  });
});

describe.skipIf(!hasBwrap)('run_shell_command in a terminal inside the sandbox', () => {
  const base = tempDir('shell-pty-sbx-');
  const ws = join(base, 'ws');
  let srv: StdioServer;

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    srv = await startStdioServer(ENTRY.shell, { args: ['--root', ws, '--sandbox'] });
  });
  afterAll(() => srv?.close());

  it('answers a prompt inside bubblewrap: the file lands in the workspace', async () => {
    const call = callInTerminal(srv, PROMPT_COMMAND);
    await waitFor(() => call.raw().includes('Project name: '), 'the prompt', 30_000);
    expect((await srv.call('write_to_shell', { pid: call.pid()!, input: 'boxed\r' })).isError).toBeFalsy();
    const r = await call.result;
    expect(textOf(r)).toContain('done boxed');
    expect(readFileSync(join(ws, 'out.txt'), 'utf8')).toBe('created boxed\n');
  });
});
