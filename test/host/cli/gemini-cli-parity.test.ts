import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCli } from '../../helpers/gemini-cli.js';
import { ONLY, runHost, workspace, type Workspace } from '../../helpers/run-host.js';

/**
 * The same recorded session (Gemini CLI's --fake-responses JSONL, its tool names and argument spellings),
 * with the same policy file and the same hook settings, through Gemini CLI 0.61 and through our host:
 * files written, tool calls made (as hooks see them), outcomes and exit codes must agree.
 * Gemini CLI 0.61 comes from test/gemini-cli (installed from npm on first use; GEMINI_CLI_061 overrides it).
 */
const HOOK = join(import.meta.dirname, '../../fixtures/hooks/record-hook.mjs');

const turn = (parts: object[]) => ({
  method: 'generateContentStream',
  response: [
    {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    },
  ],
});
const call = (name: string, args: object, id: string) => ({ functionCall: { id, name, args } });

function prepare(ws: Workspace): { rec: string; policy: string; log: string; hooks: object } {
  const rec = join(ws.home, 'recorded.jsonl');
  const lines = [
    turn([call('write_file', { file_path: 'notes/hello.txt', content: 'hi there\nsecond\n' }, 'c1')]),
    turn([call('read_file', { file_path: 'notes/hello.txt', start_line: 2, end_line: 2 }, 'c2')]),
    turn([call('grep_search', { pattern: 'there', dir_path: 'notes' }, 'c3')]),
    turn([call('run_shell_command', { command: 'cp notes/hello.txt notes/copy.txt' }, 'c4')]),
    turn([call('run_shell_command', { command: 'rm notes/hello.txt' }, 'c5')]),
    turn([call('write_file', { file_path: 'notes/blocked.txt', content: 'no' }, 'c6')]),
    turn([{ text: 'Done.' }]),
  ];
  writeFileSync(rec, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const policy = join(ws.home, 'team.toml');
  writeFileSync(
    policy,
    '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 100\n\n' +
      '[[rule]]\ntoolName = ["write_file", "run_shell_command"]\ndecision = "allow"\npriority = 10\n',
  );
  const log = join(ws.home, 'hooks.log');
  const q = (a: string) => `'${a}'`;
  const hooks = {
    BeforeTool: [
      { matcher: '.*', hooks: [{ type: 'command', command: [process.execPath, HOOK, log, 'pass'].map(q).join(' ') }] },
      {
        matcher: 'write_file',
        hooks: [
          {
            type: 'command',
            command: `${[process.execPath, HOOK, join(ws.home, 'guard.log'), 'exit2', 'no blocked files'].map(q).join(' ')}`,
          },
        ],
      },
    ],
  };
  return { rec, policy, log, hooks };
}

/** The guard blocks only blocked.txt: a wrapper script decides by the payload. */
function guardScript(ws: Workspace): string {
  const file = join(ws.home, 'guard.mjs');
  writeFileSync(
    file,
    `let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const p=JSON.parse(s);` +
      `if(String(p.tool_input.file_path).includes('blocked')){process.stderr.write('no blocked files');process.exit(2)}});\n`,
  );
  return file;
}

function observed(ws: Workspace, log: string) {
  const calls = existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).payload)
        .map((p) => ({ event: p.hook_event_name, tool: p.tool_name, input: p.tool_input }))
    : [];
  const notes = join(ws.cwd, 'notes');
  const files = existsSync(notes)
    ? Object.fromEntries(readdirSync(notes).map((f) => [f, readFileSync(join(notes, f), 'utf8')]))
    : {};
  return { calls, files };
}

function results(stdout: string) {
  return stdout
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .filter((e) => e.type === 'tool_result')
    .map((e) => e.status);
}

describe('parity with Gemini CLI 0.61 on a recorded session', () => {
  it('same files, same tool calls seen by hooks, same outcomes and exit code', { timeout: 300_000 }, async () => {
    const { entry: GEMINI, why } = geminiCli();
    // CI reaches the npm registry, so a missing Gemini CLI there is a failure, not a skip.
    if (!GEMINI && !process.env.CI) return console.warn(`gemini-cli-parity: skipped, ${why}`);
    expect(GEMINI, why).toBeDefined();
    const run = async (host: 'gemini' | 'ours') => {
      const ws = workspace();
      const { rec, policy, log, hooks } = prepare(ws);
      const guard = guardScript(ws);
      (hooks.BeforeTool[1]!.hooks[0] as { command: string }).command = `'${process.execPath}' '${guard}'`;
      const settings = { ...ONLY('filesystem', 'shell'), hooks, hooksConfig: { enabled: true } };
      ws.settings(settings);
      if (host === 'gemini') {
        mkdirSync(join(ws.home, '.gemini'), { recursive: true });
        const r = spawnSync(
          process.execPath,
          [
            GEMINI!,
            '-m',
            'gemini-2.5-flash',
            '-p',
            'make notes',
            '-o',
            'stream-json',
            '--fake-responses',
            rec,
            '--policy',
            policy,
          ],
          {
            cwd: ws.cwd,
            encoding: 'utf8',
            timeout: 60_000,
            env: {
              ...process.env,
              HOME: ws.home,
              GEMINI_CLI_HOME: ws.home,
              GEMINI_API_KEY: 'test-key',
              GEMINI_CLI_TRUST_WORKSPACE: 'true',
            },
          },
        );
        return { code: r.status, statuses: results(r.stdout), ...observed(ws, log), stderr: r.stderr };
      }
      const r = await runHost(['-p', 'make notes', '-o', 'stream-json', '--fake-responses', rec, '--policy', policy], {
        ws,
      });
      return { code: r.code, statuses: results(r.stdout), ...observed(ws, log), stderr: r.stderr };
    };
    const theirs = await run('gemini');
    const ours = await run('ours');
    expect(theirs.code, theirs.stderr.slice(-2000)).toBe(0);
    expect(ours.code, ours.stderr).toBe(0);
    expect(theirs.statuses).toEqual(['success', 'success', 'success', 'success', 'error', 'error']);
    expect(Object.keys(theirs.files).sort()).toEqual(['copy.txt', 'hello.txt']);
    expect(ours.files).toEqual(theirs.files);
    expect(ours.statuses).toEqual(theirs.statuses);
    const strip = (c: { event: string; tool: string; input: Record<string, unknown> }[]) =>
      c.map(({ event, tool, input }) => ({ event, tool, input }));
    expect(strip(ours.calls)).toEqual(strip(theirs.calls));
  });
});
