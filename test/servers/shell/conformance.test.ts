import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { META } from '../../../protocol/meta.js';
import { SUBSTITUTION_BLOCKED } from '../../../servers/shell/tools/run-shell-command.js';

const TOOL = 'run_shell_command';

/** Checklist items 2, 3, 7, 9 and 10 for the shell server: two roots, no temp dir, a confirming client. */
describe('run_shell_command: roots, validation and confirmation conformance', () => {
  const a = tempDir('shell-a-');
  const b = tempDir('shell-b-');
  const requests: ElicitRequest['params'][] = [];
  let decision: Record<string, unknown> = { decision: 'proceed_once' };
  let srv: StdioServer;

  beforeAll(async () => {
    mkdirSync(join(a, 'sub'));
    writeFileSync(join(b, 'in-b.txt'), 'from b');
    srv = await startStdioServer(ENTRY.shell, {
      args: ['--root', a, '--root', b],
      elicit: (params) => {
        requests.push(params);
        return { action: 'accept', content: decision };
      },
    });
  });
  afterAll(() => srv?.close());

  it('lists every root and no temp-dir suffix when none is configured', async () => {
    const r = await srv.call(TOOL, { command: 'ls', directory: '../..' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      `Path not in workspace: Attempted path "${join(a, '../..')}" resolves outside the allowed workspace directories: ${a}, ${b}`,
    );
    expect(r._meta?.[META.errorType]).toBe('path_not_in_workspace');
  });

  it('relative directories resolve against the primary root and may reach the second root', async () => {
    const r = await srv.call(
      TOOL,
      { command: 'cat in-b.txt', directory: relative(a, b) },
      { [META.preapproved]: true },
    );
    expect(textOf(r)).toContain('Output: from b\n');
  });

  it('fails with the no-roots message when no root exists', async () => {
    const none = await startStdioServer(ENTRY.shell, { args: ['--root', join(a, 'does-not-exist')] });
    try {
      const r = await none.call(TOOL, { command: 'pwd' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('No workspace roots are configured.');
      expect(r._meta?.[META.errorType]).toBe('path_not_in_workspace');
    } finally {
      await none.close();
    }
  });

  it('a command over the kernel argument limit is a wrapped spawn failure, and the server keeps serving', async () => {
    const r = await srv.call(TOOL, { command: `echo ${'a'.repeat(200_000)} | wc -c` }, { [META.preapproved]: true });
    expect(r.isError).toBe(true);
    expect(r._meta?.[META.errorType]).toBe('shell_execute_error');
    expect(textOf(r)).toBe('<untrusted_context>\nOutput: (empty)\nError: spawn E2BIG\n</untrusted_context>');
    // The Error line names the user's command, never the server's wrapper around it.
    const nul = await srv.call(TOOL, { command: 'echo a\u0000b' }, { [META.preapproved]: true });
    expect(nul._meta?.[META.errorType]).toBe('shell_execute_error');
    expect(textOf(nul)).toMatch(
      /^<untrusted_context>\nOutput: \(empty\)\nError: .*null bytes.*'echo a\\x00b'\n<\/untrusted_context>$/,
    );
    expect(textOf(nul)).not.toContain('exec 2>&1');
    expect(textOf(await srv.call(TOOL, { command: 'echo still here' }, { [META.preapproved]: true }))).toContain(
      'Output: still here\n',
    );
  });

  it('refuses sensitive directories and control characters inside a root', async () => {
    mkdirSync(join(a, '.git'), { recursive: true });
    const git = await srv.call(TOOL, { command: 'ls', directory: '.git' });
    expect(textOf(git)).toMatch(/^Path not in workspace: Attempted path ".*\/\.git" resolves outside/);
    const nl = await srv.call(TOOL, { command: 'ls', directory: 'sub\nx' });
    expect(textOf(nl)).toBe('Invalid path: Path contains invalid characters (newlines or control characters).');
    expect(nl._meta?.[META.errorType]).toBe('invalid_tool_params');
  });

  it('a missing or mistyped parameter is a schema error naming it, with an error type', async () => {
    for (const args of [{}, { command: 42 }, { command: 'ls', directory: 7 }]) {
      const r = await srv.call(TOOL, args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/command|directory/);
      expect(r._meta?.[META.errorType]).toBe('invalid_tool_params');
    }
  });

  it('validation and substitution errors never ask the user; runs in the primary root by default', async () => {
    const before = requests.length;
    for (const args of [
      { command: '' },
      { command: 'echo (' },
      { command: 'ls', directory: 'nope' },
      { command: 'cat <(id)' },
    ]) {
      await srv.call(TOOL, args);
    }
    expect(textOf(await srv.call(TOOL, { command: 'echo $((1+1))' }))).toBe(SUBSTITUTION_BLOCKED);
    expect(requests.length).toBe(before);
    const r = await srv.call(TOOL, { command: 'pwd' });
    expect(textOf(r)).toContain(`Output: ${a}\n`);
    expect(requests.length).toBe(before + 1);
    expect(requests.at(-1)?._meta?.[META.confirmation]).toMatchObject({
      kind: 'exec',
      rootCommands: ['pwd'],
      directory: a,
    });
  });

  it('a `modify` answer is not consent for a command: nothing runs', async () => {
    decision = { decision: 'modify', content: 'touch other' };
    try {
      const r = await srv.call(TOOL, { command: 'touch modified' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe('[Operation Cancelled] Reason: User denied execution.');
      expect(r._meta?.[META.errorType]).toBe('execution_failed');
      expect(existsSync(join(a, 'modified'))).toBe(false);
      expect(existsSync(join(a, 'other'))).toBe(false);
    } finally {
      decision = { decision: 'proceed_once' };
    }
  });
});
