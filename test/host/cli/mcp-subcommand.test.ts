import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runMcpCommand } from '../../../host/cli/mcp-subcommand.js';
import { ENTRY, REPO } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';

const FAULT = join(REPO, 'test/fixtures/fault-server.mjs');

function sink() {
  let text = '';
  const stream = new Writable({
    write(chunk, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  });
  return { stream, text: () => text };
}

function setup() {
  const root = tempDir('gmc-mcpcmd-');
  const home = join(root, 'home');
  const project = join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = {
    ...process.env,
    GEMINI_CLI_HOME: home,
    GEMINI_CLI_SYSTEM_SETTINGS_PATH: join(root, 'none.json'),
    GEMINI_CLI_SYSTEM_DEFAULTS_PATH: join(root, 'none-defaults.json'),
  };
  const run = async (...argv: string[]) => {
    const out = sink();
    const err = sink();
    const code = await runMcpCommand(argv, { cwd: project, env, stdout: out.stream, stderr: err.stream });
    return { code, out: out.text(), err: err.text() };
  };
  const projectFile = join(project, '.gemini/settings.json');
  const userFile = join(home, '.gemini/settings.json');
  const read = (f: string) => JSON.parse(readFileSync(f, 'utf8'));
  return { root, home, project, env, run, projectFile, userFile, read };
}

describe('gemini-mcp mcp add / remove', () => {
  it('adds a stdio server to the project settings, keeping other keys, and updates it', async () => {
    const t = setup();
    mkdirSync(join(t.project, '.gemini'));
    writeFileSync(t.projectFile, JSON.stringify({ model: { name: 'keep-me' } }));
    const r = await t.run(
      'add',
      '-e',
      'API_KEY=$MY_KEY',
      '-e',
      'MODE=fast',
      '--timeout',
      '5000',
      '--trust',
      '--include-tools',
      'a,b',
      'github',
      'npx',
      '-y',
      '@x/server',
      '--flag',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('"github" added to project settings');
    expect(t.read(t.projectFile)).toEqual({
      model: { name: 'keep-me' },
      mcpServers: {
        github: {
          command: 'npx',
          args: ['-y', '@x/server', '--flag'],
          env: { API_KEY: '$MY_KEY', MODE: 'fast' },
          timeout: 5000,
          trust: true,
          includeTools: ['a', 'b'],
        },
      },
    });
    const again = await t.run('add', 'github', 'other-cmd');
    expect(again.out).toContain('updated in project settings');
    expect(t.read(t.projectFile).mcpServers.github).toEqual({ command: 'other-cmd' });
  });

  it('adds remote servers to the user settings', async () => {
    const t = setup();
    expect(
      (
        await t.run(
          'add',
          '-s',
          'user',
          '-t',
          'http',
          '-H',
          'Authorization: Bearer $TOKEN',
          'remote',
          'https://example.com/mcp',
        )
      ).code,
    ).toBe(0);
    expect((await t.run('add', '--scope=user', '--transport=sse', 'old', 'http://127.0.0.1:9/sse')).code).toBe(0);
    expect(t.read(t.userFile).mcpServers).toEqual({
      remote: { url: 'https://example.com/mcp', type: 'http', headers: { Authorization: 'Bearer $TOKEN' } },
      old: { url: 'http://127.0.0.1:9/sse', type: 'sse' },
    });
    expect(existsSync(t.projectFile)).toBe(false);
  });

  it('refuses bad input without touching the file', async () => {
    const t = setup();
    mkdirSync(join(t.project, '.gemini'));
    writeFileSync(t.projectFile, '{"mcpServers": {');
    const broken = await t.run('add', 'x', 'cmd');
    expect(broken.code).toBe(52);
    expect(broken.err).toContain(t.projectFile);
    expect(readFileSync(t.projectFile, 'utf8')).toBe('{"mcpServers": {');
    expect(existsSync(t.userFile)).toBe(false);
    // Usage mistakes are 42 (bad input), whatever part of the command they are in.
    expect((await t.run('add', '-t', 'http', 'r', 'not a url')).code).toBe(42);
    expect((await t.run('add', '--bogus', 'x', 'y')).code).toBe(42);
    expect((await t.run('add', 'only-name')).code).toBe(42);
    expect((await t.run('add', '-s', 'galaxy', 'x', 'y')).code).toBe(42);
    expect((await t.run('frobnicate')).code).toBe(42);
    expect((await t.run()).code).toBe(42);
    expect((await t.run('--help')).code).toBe(0);
  });

  it('removes a server, and says so when it is not there', async () => {
    const t = setup();
    await t.run('add', '-s', 'user', 'a', 'cmd-a');
    await t.run('add', '-s', 'user', 'b', 'cmd-b');
    const r = await t.run('remove', '-s', 'user', 'a');
    expect(r.code).toBe(0);
    expect(Object.keys(t.read(t.userFile).mcpServers)).toEqual(['b']);
    const missing = await t.run('remove', 'a');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('"a" not found in project settings');
    expect(missing.err).toContain('or user settings');
  });

  it('remove without --scope finds the server in whichever scope holds it; in both it asks for --scope', async () => {
    const t = setup();
    await t.run('add', '-s', 'user', 'only-user', 'cmd');
    const r = await t.run('remove', 'only-user');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('removed from user settings');
    expect(t.read(t.userFile).mcpServers).toEqual({});

    await t.run('add', '-s', 'user', 'both', 'cmd-u');
    await t.run('add', '-s', 'project', 'both', 'cmd-p');
    const ambiguous = await t.run('remove', 'both');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.err).toContain('--scope project or --scope user');
    expect(t.read(t.userFile).mcpServers).toHaveProperty('both');
    expect(t.read(t.projectFile).mcpServers).toHaveProperty('both');
    expect((await t.run('remove', '--scope', 'project', 'both')).code).toBe(0);
    expect(t.read(t.projectFile).mcpServers).toEqual({});
    expect(t.read(t.userFile).mcpServers).toHaveProperty('both');
  });
});

describe('gemini-mcp mcp list', () => {
  it('shows status, tool counts, failure reasons and blocked servers', async () => {
    const t = setup();
    mkdirSync(join(t.home, '.gemini'));
    writeFileSync(
      t.userFile,
      JSON.stringify({
        mcp: { excluded: ['shell', 'web', 'memory'] },
        mcpServers: {
          fault: { command: process.execPath, args: [FAULT] },
          broken: { command: process.execPath, args: [FAULT], env: { FAULT_CRASH_ON_START: '1' } },
        },
      }),
    );
    const r = await t.run('list');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/✓ filesystem \(built-in, stdio\) - Connected, \d+ tools/);
    expect(r.out).toMatch(/✓ fault \(stdio: .*fault-server\.mjs\) - Connected, 11 tools/);
    expect(r.out).toMatch(/✗ broken .* - Failed:/);
    expect(r.out).toContain('refusing to start');
    expect(r.out).toContain('- web - Blocked: excluded by mcp.excluded');
  });

  it('exits 52 on invalid settings', async () => {
    const t = setup();
    mkdirSync(join(t.home, '.gemini'));
    writeFileSync(t.userFile, JSON.stringify({ mcpServers: { x: { command: 5 } } }));
    const r = await t.run('list');
    expect(r.code).toBe(52);
    expect(r.err).toContain('mcpServers.x.command');
  });

  it.skipIf(!existsSync(ENTRY.host))('works through the gemini-mcp binary', () => {
    const t = setup();
    const add = spawnSync(
      process.execPath,
      [ENTRY.host, 'mcp', 'add', '-s', 'user', 'viabin', process.execPath, FAULT],
      { cwd: t.project, env: t.env, encoding: 'utf8' },
    );
    expect(add.status, add.stderr).toBe(0);
    expect(t.read(t.userFile).mcpServers.viabin).toEqual({ command: process.execPath, args: [FAULT] });
    writeFileSync(
      t.userFile,
      JSON.stringify({ ...t.read(t.userFile), mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] } }),
    );
    const list = spawnSync(process.execPath, [ENTRY.host, 'mcp', 'list'], {
      cwd: t.project,
      env: t.env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/✓ viabin .* - Connected, 11 tools/);
    const odd = spawnSync(process.execPath, [ENTRY.host, 'mcp', 'add', '-s', 'user', 'x__y', 'cmd'], {
      cwd: t.project,
      env: t.env,
      encoding: 'utf8',
    });
    expect(odd.status, odd.stderr).toBe(0);
    expect(odd.stdout).toContain('x_y__<tool>');
  });
});
