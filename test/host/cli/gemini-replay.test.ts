import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';

const REF_FS = resolve(
  import.meta.dirname,
  '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js',
);

/** One recorded model turn, as Gemini CLI's --record-responses writes it. */
const turn = (parts: object[]) => ({
  method: 'generateContentStream',
  response: [
    {
      candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    },
  ],
});
const call = (name: string, args: object, id = name) => ({ functionCall: { id, name, args } });

/**
 * A session recorded from Gemini CLI 0.61: its tool names (write_file, read_file, grep_search,
 * list_directory, run_shell_command, mcp_<server>_<tool>), its argument spellings (file_path, dir_path,
 * start_line, relative paths) — replayed through our headless host against the real servers.
 */
describe('a recorded Gemini CLI session replays with --fake-responses', () => {
  it('runs the same tool calls under Gemini CLI names, with policy files, bare-name allow rules and exit codes', async () => {
    const ws = workspace();
    ws.settings({
      ...ONLY('filesystem', 'shell', 'memory'),
      mcpServers: { ref: { command: process.execPath, args: [REF_FS, ws.cwd] } },
    });
    const policy = join(ws.home, 'team.toml');
    writeFileSync(
      policy,
      '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "rm"\ndecision = "deny"\npriority = 100\ndenyMessage = "Removing files is not allowed here."\n',
    );
    const rec = join(ws.home, 'recorded.jsonl');
    const lines = [
      turn([call('write_file', { file_path: 'notes/hello.txt', content: 'hi there\nsecond\n' })]),
      turn([
        call('read_file', { file_path: 'notes/hello.txt', start_line: 2, end_line: 2 }),
        call('grep_search', { pattern: 'there', dir_path: 'notes' }),
        call('list_directory', { dir_path: 'notes' }),
        call('read_mcp_resource', { uri: 'gemini-memory://files' }),
      ]),
      turn([
        call('run_shell_command', { command: 'cp notes/hello.txt notes/copy.txt', dir_path: ws.cwd }),
        call('run_shell_command', { command: 'rm notes/hello.txt' }, 'rm'),
        call('mcp_ref_write_file', { path: join(ws.cwd, 'foreign.txt'), content: 'x' }),
      ]),
      turn([{ text: 'Done.' }]),
    ];
    writeFileSync(rec, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await runHost(
      [
        '-p',
        'make notes',
        '-o',
        'stream-json',
        '--fake-responses',
        rec,
        '--policy',
        policy,
        '--allowed-tools',
        'write_file,run_shell_command',
      ],
      { ws },
    );
    expect(r.code, r.stderr).toBe(0);
    // Files written: the built-in ran under Gemini CLI's names and spellings; the denied ones did not.
    expect(readFileSync(join(ws.cwd, 'notes/hello.txt'), 'utf8')).toBe('hi there\nsecond\n');
    expect(readFileSync(join(ws.cwd, 'notes/copy.txt'), 'utf8')).toBe('hi there\nsecond\n');
    expect(existsSync(join(ws.cwd, 'foreign.txt'))).toBe(false);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const results = events.filter((e) => e.type === 'tool_result');
    const byId = Object.fromEntries(results.map((e) => [e.tool_id, e]));
    // Read-only calls of one turn run in parallel: their results come in any order.
    expect(results.map((e) => e.tool_id).sort()).toEqual(
      [
        'write_file',
        'read_file',
        'grep_search',
        'list_directory',
        'read_mcp_resource',
        'run_shell_command',
        'rm',
        'mcp_ref_write_file',
      ].sort(),
    );
    expect(byId.read_file.output).toMatch(/Showing lines 2-2 of 3[\s\S]*\nsecond\n?$/);
    for (const id of [
      'write_file',
      'read_file',
      'grep_search',
      'list_directory',
      'read_mcp_resource',
      'run_shell_command',
    ])
      expect(byId[id].status, `${id}: ${JSON.stringify(byId[id])}`).toBe('success');
    expect(byId.rm.status).toBe('error');
    expect(JSON.stringify(byId.rm)).toContain('Removing files is not allowed here.');
    // A bare write_file in --allowed-tools does not approve the third-party server's write_file.
    expect(byId.mcp_ref_write_file.status).toBe('error');
    expect(JSON.stringify(byId.mcp_ref_write_file)).toContain('requires user confirmation');
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'success' });
  });
});
