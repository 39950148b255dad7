import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runToolsCommand } from '../../../host/cli/tools-subcommand.js';
import { ENTRY, REPO, requireBuilt } from '../../helpers/paths.js';
import { workspace } from '../scheduler/scheduler-workspace.js';

function sink(): Writable & { text: () => string } {
  let buf = '';
  const w = new Writable({
    write(chunk, _enc, cb) {
      buf += chunk.toString();
      cb();
    },
  });
  return Object.assign(w, { text: () => buf });
}

async function run(argv: string[], ws: { dir: string; env: NodeJS.ProcessEnv }) {
  const stdout = sink();
  const stderr = sink();
  const code = await runToolsCommand(argv, { cwd: ws.dir, env: ws.env, stdout, stderr });
  return { code, out: stdout.text(), err: stderr.text() };
}

describe('gemini-mcp tools list|call', () => {
  const ws = workspace(['filesystem']);

  it('list prints servers and exposed names', async () => {
    const r = await run(['list'], ws);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^filesystem \(connected, \d+ tools\)/m);
    expect(r.out).toContain('  filesystem__read_file\n');
    // Whole descriptions, wrapped and indented under the name: the last sentence is there too.
    const write = / {2}filesystem__write_file\n((?: {6}.*\n)+)/.exec(r.out);
    expect(write?.[1].split('\n').length).toBeGreaterThan(2);
    const j = await run(['list', '--json'], ws);
    const tools = JSON.parse(j.out).tools as { name: string; inputSchema: { properties: Record<string, unknown> } }[];
    const wf = tools.find((t) => t.name === 'filesystem__write_file');
    expect(Object.keys(wf?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['file_path', 'content']));
  });

  it('describe prints the description and input schema; --json as one object; unknown names exit 1', async () => {
    const r = await run(['describe', 'read_file'], ws);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^filesystem__read_file {2}\(server filesystem, tool read_file; read-only, built-in\)/);
    expect(r.out).toContain('Input schema:\n{');
    expect(r.out).toContain('"absolute_path"');
    const j = await run(['describe', 'filesystem__read_file', '--json'], ws);
    expect(JSON.parse(j.out)).toMatchObject({ name: 'filesystem__read_file', inputSchema: { type: 'object' } });
    expect((await run(['describe', 'filesystem__nope'], ws)).code).toBe(1);
    expect((await run(['describe'], ws)).code).toBe(42);
  });

  it('call: 0 on success, output on stdout; bare names resolve', async () => {
    writeFileSync(join(ws.dir, 'r.txt'), 'read me\n');
    const r = await run(['call', 'read_file', JSON.stringify({ absolute_path: join(ws.dir, 'r.txt') })], ws);
    expect(r).toEqual({ code: 0, out: 'read me\n', err: '' });
  });

  it('call: an edit is declined headless (exit 1) and runs with --yolo or --approval-mode auto_edit', async () => {
    const file = join(ws.dir, 'w.txt');
    const args = JSON.stringify({ file_path: file, content: 'w' });
    const denied = await run(['call', 'filesystem__write_file', args], ws);
    expect(denied.code).toBe(1);
    expect(denied.err).toContain('requires user confirmation, which is not supported in non-interactive mode');
    expect(denied.err).toContain('--yolo');
    expect(denied.err).toContain('--allowed-tools filesystem__write_file');
    const deniedJson = await run(['call', 'filesystem__write_file', args, '--json'], ws);
    expect(JSON.parse(deniedJson.out).hint).toContain('--allowed-tools filesystem__write_file');
    expect(existsSync(file)).toBe(false);
    expect((await run(['call', 'filesystem__write_file', args, '--yolo'], ws)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('w');
    const edit = JSON.stringify({ file_path: file, content: 'v' });
    expect((await run(['call', 'filesystem__write_file', edit, '--approval-mode', 'auto_edit'], ws)).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('v');
  });

  it('call: tool errors and unknown tools exit 1; bad JSON or usage exit 42', async () => {
    const missing = await run(
      ['call', 'filesystem__read_file', JSON.stringify({ absolute_path: join(ws.dir, 'nope.txt') })],
      ws,
    );
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^Error: /);
    expect((await run(['call', 'filesystem__nope', '{}'], ws)).code).toBe(1);
    expect((await run(['call', 'filesystem__read_file', '{not json'], ws)).code).toBe(42);
    expect((await run(['frobnicate'], ws)).code).toBe(42);
    const unknown = await run(['list', '--bogus'], ws);
    expect(unknown.code).toBe(42);
    expect(unknown.err).toContain(
      `Unknown option '--bogus'. Text that starts with '-' goes after '--': gemini-mcp tools -- '--bogus'`,
    );
    expect((await run(['call', 'read_file', '{}', '--approval-mode', 'wild'], ws)).code).toBe(42);
  });

  it("a third-party server's result is shown without the model-only untrusted fence", async () => {
    const third = workspace([]);
    const fault = join(REPO, 'test/fixtures/fault-server.mjs');
    writeFileSync(
      join(third.dir, '.gemini', 'settings.json'),
      JSON.stringify({
        mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] },
        mcpServers: { fault: { command: process.execPath, args: [fault] } },
      }),
    );
    const r = await run(['call', 'fault__echo', JSON.stringify({ text: 'hello there' }), '--yolo'], third);
    expect(r).toEqual({ code: 0, out: 'hello there\n', err: '' });
    const j = await run(['call', 'fault__echo', JSON.stringify({ text: 'hi' }), '--yolo', '--json'], third);
    expect(JSON.parse(j.out).output).toBe('hi');
  });

  it('configuration errors exit 52', async () => {
    const bad = workspace([]);
    writeFileSync(join(bad.dir, '.gemini', 'settings.json'), JSON.stringify({ tools: { allowed: 5 } }));
    const r = await run(['list'], bad);
    expect(r.code).toBe(52);
    expect(r.err).toMatch(/Configuration error: .*tools\.allowed/);
    writeFileSync(join(bad.dir, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { x: {} } }));
    expect((await run(['list'], bad)).code).toBe(52);
  });

  it('the built binary dispatches `tools` here and returns the exit code', () => {
    const file = join(ws.dir, 'bin.txt');
    const r = spawnSync(
      process.execPath,
      [
        requireBuilt(ENTRY.host),
        'tools',
        'call',
        'filesystem__write_file',
        JSON.stringify({ file_path: file, content: 'b' }),
      ],
      { cwd: ws.dir, env: ws.env, encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status).toBe(1);
    expect(existsSync(file)).toBe(false);
  });
});
