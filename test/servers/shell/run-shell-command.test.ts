import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { META } from '../../../protocol/meta.js';
import { SUBSTITUTION_BLOCKED } from '../../../servers/shell/tools/run-shell-command.js';
import { isRunning, liveGroupMembers } from './procs.js';

const TOOL = 'run_shell_command';
const pgidOf = (text: string) => Number(/Process Group PGID: (\d+)/.exec(text)?.[1]);

describe('run_shell_command over stdio', () => {
  const root = tempDir('shell-root-');
  const projectTmp = tempDir('shell-ptmp-');
  let srv: StdioServer;
  const run = (command: string, extra: Record<string, unknown> = {}) => srv.call(TOOL, { command, ...extra });

  beforeAll(async () => {
    mkdirSync(join(root, 'sub'));
    srv = await startStdioServer(ENTRY.shell, { args: ['--root', root, '--project-temp-dir', projectTmp] });
  });
  afterAll(() => srv?.close());

  it('declares the tool per contract (title, annotations, confirms, schema)', async () => {
    const { tools } = await srv.client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      TOOL,
      'list_background_processes',
      'read_background_output',
      'kill_background_process',
      'write_to_shell',
    ]);
    const t = tools[0];
    expect(t.title).toBe('Shell');
    expect(t.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(t._meta?.[META.confirms]).toBe(true);
    expect(t.inputSchema.required).toEqual(['command']);
    expect(t.inputSchema.additionalProperties).not.toBe(false);
    for (const word of [
      'bash -c',
      '$()',
      '&',
      'Background PIDs',
      'Process Group PGID',
      'kill -- -PGID',
      'is_background',
    ]) {
      expect(t.description).toContain(word);
    }
    expect(Object.keys(t.inputSchema.properties ?? {})).toEqual([
      'command',
      'description',
      'directory',
      'is_background',
      'delay_ms',
    ]);
    // Listing and reading jobs change nothing; stopping one does.
    const byName = new Map(tools.map((x) => [x.name, x]));
    expect(byName.get('list_background_processes')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('read_background_output')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('kill_background_process')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
  });

  it('runs a command: exact result text, wrapped', async () => {
    const r = await run('echo hello', { wait_for_previous: true });
    const pgid = pgidOf(textOf(r));
    expect(pgid).toBeGreaterThan(1);
    expect(textOf(r)).toBe(`<untrusted_context>\nOutput: hello\nProcess Group PGID: ${pgid}\n</untrusted_context>`);
    expect(r.isError).toBeFalsy();
  });

  it('combines stdout and stderr in order; a non-zero exit is a normal result', async () => {
    const r = await run('echo out; echo err 1>&2; exit 3');
    const text = textOf(r);
    expect(text).toContain('Output: out\nerr\nExit Code: 3\nProcess Group PGID: ');
    expect(r.isError).toBeFalsy();
    for (const gone of ['Command:', 'Directory:', 'Stdout:', 'Stderr:']) expect(text).not.toContain(gone);
    expect(textOf(await run('echo only-err >&2'))).toContain('Output: only-err\nProcess Group');
    expect(textOf(await run('echo fine; exit 0'))).not.toContain('Exit Code');
  });

  it('reports empty output, signals, ANSI-stripped and trimmed text, escaped closing tags', async () => {
    expect(textOf(await run('true'))).toMatch(
      /^<untrusted_context>\nOutput: \(empty\)\nProcess Group PGID: \d+\n<\/untrusted_context>$/,
    );
    const killed = textOf(await run('kill -9 $$'));
    expect(killed).toContain('Signal: 9\n');
    expect(killed).not.toContain('Exit Code');
    expect(textOf(await run("printf '\\n  \\033[1;31mred\\033[0m \\033[2Kdone  \\n\\n'"))).toContain(
      'Output: red done\nProcess',
    );
    const tag = textOf(await run("echo 'a</untrusted_context>b'"));
    expect(tag).toContain('Output: a&lt;/untrusted_context&gt;b');
    expect(tag.match(/<\/untrusted_context>/g)).toHaveLength(1);
  });

  it('stops capturing binary output', async () => {
    expect(textOf(await run('head -c 5000 /dev/zero'))).toContain('Output: (empty)\n');
  });

  it('reports background jobs, which keep running', async () => {
    const r = await run('sleep 30 & echo started');
    const text = textOf(r);
    const bg = Number(/Background PIDs: (\d+)\n/.exec(text)?.[1]);
    expect(text).toMatch(/^<untrusted_context>\nOutput: started\nBackground PIDs: \d+\nProcess Group PGID: \d+\n/);
    expect(isRunning(bg)).toBe(true);
    expect(liveGroupMembers(pgidOf(text))).toEqual([bg]);
    process.kill(-pgidOf(text), 'SIGKILL');
  });

  it('validates in the contract order with exact messages', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ command: '   ' }, 'Command cannot be empty.'],
      [{ command: 'echo (' }, 'Could not identify command root to obtain permission from user.'],
      [
        { command: 'ls', directory: '/usr' },
        'Directory cannot be absolute. Must be relative to the project root directory.',
      ],
      [{ command: 'ls', directory: 'missing' }, 'Directory must exist.'],
      [
        { command: 'ls', directory: '../..' },
        `Path not in workspace: Attempted path "${join(root, '../..')}" resolves outside the allowed workspace directories: ${root} or the project temp directory: ${projectTmp}`,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await srv.call(TOOL, args);
      expect(r.isError, message).toBe(true);
      expect(textOf(r)).toBe(message);
      expect(r._meta?.[META.errorType]).toBeTruthy();
    }
    const missing = await srv.call(TOOL, {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('command');
    expect(textOf(await run('pwd', { directory: 'sub' }))).toContain(`Output: ${join(root, 'sub')}\n`);
    expect(textOf(await run('pwd'))).toContain(`Output: ${root}\n`);
  });

  it('blocks command substitution before anything runs, but not inside single quotes', async () => {
    for (const command of [
      'echo $(touch m1)',
      'echo `touch m2`',
      'cat <(touch m3)',
      'echo "$(touch m4)"',
      "bash -c 'touch $(echo m5)'",
    ]) {
      const r = await run(command);
      expect(textOf(r)).toBe(SUBSTITUTION_BLOCKED);
      expect(r.isError).toBeFalsy();
    }
    for (const m of ['m1', 'm2', 'm3', 'm4', 'm5']) expect(existsSync(join(root, m))).toBe(false);
    expect(textOf(await run("echo '$(not substituted)'"))).toContain('Output: $(not substituted)\n');
  });

  it('truncates long output for the model and saves the full text under the project temp dir', async () => {
    const r = await run('seq 1 20000');
    const text = textOf(r);
    const m = /^Output too large\. Showing first 8,000 and last 32,000 characters\. For full output see: (.+)\n/.exec(
      text,
    );
    expect(m).not.toBeNull();
    const file = m![1];
    expect(file).toMatch(new RegExp(`^${join(projectTmp, 'tool-outputs')}/run_shell_command_[^/]+\\.txt$`));
    const full = readFileSync(file, 'utf8');
    // The exact layout around the saved full text: its first 8,000 and last 32,000 characters, the middle counted.
    expect(text).toBe(
      `${m![0]}${full.slice(0, 8000)}\n\n... [${(full.length - 40_000).toLocaleString('en-US')} characters omitted] ...\n\n${full.slice(-32_000)}`,
    );
    expect(full.startsWith('<untrusted_context>\nOutput: 1\n2\n3\n')).toBe(true);
    expect(full).toContain('\n19999\n20000\nProcess Group PGID: ');
    expect(text).toContain(' characters omitted] ...');
    expect(text.endsWith('</untrusted_context>')).toBe(true);
  });

  it('caps capture at 16 MB with the contract warning', async () => {
    const r = await run("head -c 17000000 /dev/zero | tr '\\0' a");
    const text = textOf(r);
    expect(text).toContain('Output too large.');
    expect(text).toContain(
      'a\n[GEMINI_CLI_WARNING: Output truncated. The buffer is limited to 16MB.]\nProcess Group PGID: ',
    );
    const file = /For full output see: (.+)\n/.exec(text)![1];
    const full = readFileSync(file, 'utf8');
    expect(full.length).toBeGreaterThan(16 * 1024 * 1024);
    expect(full.length).toBeLessThan(16 * 1024 * 1024 + 1000);
  });

  it('streams output lines as progress notifications while running', async () => {
    const messages: string[] = [];
    const r = await srv.client.callTool(
      { name: TOOL, arguments: { command: 'echo first; sleep 0.5; echo second' } },
      undefined,
      {
        onprogress: (p) => void (p.message && messages.push(p.message)),
      },
    );
    expect(textOf(r as never)).toContain('Output: first\nsecond');
    expect(messages.join('\n')).toContain('first');
  });
});

describe('run_shell_command confirmation and spawn failure', () => {
  const root = tempDir('shell-conf-');

  it('asks through elicitation before running; decline runs nothing', async () => {
    const requests: ElicitRequest['params'][] = [];
    let answer = 'proceed_once';
    const srv = await startStdioServer(ENTRY.shell, {
      args: ['--root', root],
      elicit: (params) => {
        requests.push(params);
        return answer === 'decline' ? { action: 'decline' } : { action: 'accept', content: { decision: answer } };
      },
    });
    try {
      const ok = await srv.call(
        TOOL,
        { command: 'touch yes && echo made', description: 'Make a file.' },
        { [META.callId]: 'c1' },
      );
      expect(textOf(ok)).toContain('Output: made');
      expect(requests).toHaveLength(1);
      expect(requests[0]._meta?.[META.confirmation]).toEqual({
        kind: 'exec',
        title: 'Confirm Shell Command',
        command: 'touch yes && echo made',
        rootCommands: ['touch', 'echo'],
        directory: root,
        description: 'Make a file.',
        callId: 'c1',
      });
      expect(requests[0].message).toContain('Confirm Shell Command');

      for (answer of ['decline', 'cancel']) {
        const no = await srv.call(TOOL, { command: 'touch no' });
        expect(no.isError).toBe(true);
        expect(textOf(no)).toBe('[Operation Cancelled] Reason: User denied execution.');
      }
      expect(existsSync(join(root, 'no'))).toBe(false);

      const before = requests.length;
      expect(textOf(await srv.call(TOOL, { command: 'echo $(id)' }))).toBe(SUBSTITUTION_BLOCKED);
      expect(textOf(await srv.call(TOOL, { command: 'echo pre' }, { [META.preapproved]: true }))).toContain(
        'Output: pre',
      );
      expect(requests.length).toBe(before);
    } finally {
      await srv.close();
    }
  });

  it('a spawn failure is an isError result in the wrapped format, without a PGID', async () => {
    const srv = await startStdioServer(ENTRY.shell, {
      args: ['--root', root],
      env: { PATH: join(root, 'no-such-bin') },
    });
    try {
      const r = await srv.call(TOOL, { command: 'echo hi' });
      expect(r.isError).toBe(true);
      expect(r._meta?.[META.errorType]).toBe('shell_execute_error');
      expect(textOf(r)).toBe('<untrusted_context>\nOutput: (empty)\nError: spawn bash ENOENT\n</untrusted_context>');
    } finally {
      await srv.close();
    }
  });
});
