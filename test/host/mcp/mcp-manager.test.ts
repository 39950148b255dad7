import { existsSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, waitFor } from '../../helpers/wait.js';
import { McpCallError } from '../../../host/mcp/client-manager.js';
import { ClientRequests } from '../../../host/mcp/client-requests.js';
import { resolveServers } from '../../../host/config/servers.js';
import { FAULT, fault, managerFactory } from './fault-harness.js';
import { tempDir } from '../../helpers/tmp.js';
import { textOf } from '../../helpers/mcp.js';

const manager = managerFactory([100, 200, 300]);

describe('McpClientManager with the fault server', () => {
  it('connects without blocking, paginates tools/list and collects instructions', async () => {
    const dir = tempDir();
    const m = manager([fault('f', dir, { FAULT_PAGE_SIZE: '3' })]);
    const statuses: string[] = [];
    m.on('status', (s) => statuses.push(s.status));
    m.start();
    expect(m.state('f')!.status).toBe('connecting');
    await m.whenSettled();
    const s = m.state('f')!;
    expect(s.status).toBe('connected');
    expect(s.tools.map((t) => t.name)).toContain('schema_tool'); // the last page
    expect(s.tools.length).toBe(11);
    expect(s.instructions).toBe('Fault server: use with care.');
    expect(statuses).toEqual(['connecting', 'connected']);
  });

  it('applies includeTools / excludeTools to original names', async () => {
    const dir = tempDir();
    const m = manager([
      fault('inc', dir, {}, { includeTools: ['echo', 'hang(x)'] }),
      fault('exc', dir, {}, { includeTools: ['echo', 'crash'], excludeTools: ['crash'] }),
    ]);
    await m.whenSettled();
    expect(m.state('inc')!.tools.map((t) => t.name)).toEqual(['echo', 'hang']);
    expect(m.state('exc')!.tools.map((t) => t.name)).toEqual(['echo']);
  });

  it('a crash mid-call gives a clear error with the stderr tail, and the server is restarted', async () => {
    const dir = tempDir();
    const m = manager([fault('f', dir)]);
    await m.whenSettled();
    const pid = m.pid('f');
    const err = await m.callTool('f', 'crash', {}).catch((e) => e);
    expect(err).toBeInstanceOf(McpCallError);
    expect(err.kind).toBe('crashed');
    expect(err.message).toContain("MCP server 'f' crashed");
    expect(err.message).toContain('fatal error in crash tool');
    await waitFor(() => m.state('f')!.status === 'connected', 'restart');
    expect(m.pid('f')).not.toBe(pid);
    expect(m.state('f')!.restarts).toBe(1);
    expect(textOf(await m.callTool('f', 'echo', { text: 'back' }))).toBe('back');
  });

  it('retries a read-only tool of a trusted server once after the restart, but not an untrusted one', async () => {
    const dir = tempDir();
    const untrusted = tempDir();
    const m = manager([fault('trusted', dir, {}, { trust: true }), fault('plain', untrusted)]);
    await m.whenSettled();
    expect(textOf(await m.callTool('trusted', 'crash_once_read', {}))).toBe('survived the restart');
    expect(m.state('trusted')!.restarts).toBe(1);
    const err = await m.callTool('plain', 'crash_once_read', {}).catch((e) => e);
    expect(err.kind).toBe('crashed');
    expect(err.message).toContain('crash_once_read going down');
  });

  it('gives up after 3 restart attempts and reports the reason', async () => {
    const dir = tempDir();
    const flag = join(dir, 'crash-on-start');
    // Starts fine once; every restart fails at start-up.
    const wrapper = join(dir, 'wrapper.mjs');
    writeFileSync(
      wrapper,
      `import { existsSync } from 'node:fs';\nif (existsSync(${JSON.stringify(flag)})) process.env.FAULT_CRASH_ON_START = '1';\nawait import(${JSON.stringify(FAULT)});\n`,
    );
    const m = manager([fault('f', dir, {}, { args: [wrapper] })]);
    await m.whenSettled();
    writeFileSync(flag, '1');
    await m.callTool('f', 'crash', {}).catch(() => undefined);
    await waitFor(() => m.state('f')!.status === 'failed', 'give-up');
    const s = m.state('f')!;
    expect(s.error).toContain('gave up after 3 restart attempts');
    expect(s.error).toContain('refusing to start');
    expect(s.restarts).toBe(3);
    const err = await m.callTool('f', 'echo', { text: 'x' }).catch((e) => e);
    expect(err.kind).toBe('not_connected');
    // A manual restart brings it back once the cause is gone.
    rmFlag(flag);
    await m.restart('f');
    expect(m.state('f')!.status).toBe('connected');
  });

  it('times out a hanging call and the server observes the cancellation', async () => {
    const dir = tempDir();
    const m = manager([fault('f', dir, {}, { timeoutMs: 300 })]);
    await m.whenSettled();
    const err = await m.callTool('f', 'hang', {}).catch((e) => e);
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/timed out after 300 ms/);
    const log = join(dir, 'cancelled.log');
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('hang cancelled'), 'cancellation log');
    // The connection survives a timeout.
    expect(textOf(await m.callTool('f', 'echo', { text: 'still here' }))).toBe('still here');
  });

  it('an aborted call sends notifications/cancelled', async () => {
    const dir = tempDir();
    const m = manager([fault('f', dir)]);
    await m.whenSettled();
    const ac = new AbortController();
    const p = m.callTool('f', 'hang', {}, { signal: ac.signal }).catch((e) => e);
    setTimeout(() => ac.abort(new Error('user pressed Esc')), 100);
    const err = await p;
    expect(err.kind).toBe('cancelled');
    const log = join(dir, 'cancelled.log');
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('hang cancelled'), 'cancellation log');
    expect(readFileSync(log, 'utf8')).toMatch(/^cancellation of request \d+\n/);
  });

  // Clients must never cancel initialize; the SDK kept listening to the session's close signal after the
  // handshake, so every session end used to send a cancellation of request 0.
  it('closing the manager cancels nothing that already finished, initialize included', async () => {
    const dir = tempDir();
    const m = manager([fault('f', dir)]);
    await m.whenSettled();
    expect(textOf(await m.callTool('f', 'echo', { text: 'done' }))).toBe('done');
    const pid = m.pid('f')!;
    await m.close();
    await waitFor(() => !isAlive(pid), 'server exit');
    expect(existsSync(join(dir, 'cancelled.log')) ? readFileSync(join(dir, 'cancelled.log'), 'utf8') : '').toBe('');
  });

  it('routes a form elicitation to the asker and pauses the call timer while one is open', async () => {
    const dir = tempDir();
    const seen: string[] = [];
    const clientRequests = new ClientRequests({ trusted: () => false });
    clientRequests.setAsker({
      fillForm: async ({ server, form }) => {
        seen.push(`${server}: ${form.message}`);
        await new Promise((r) => setTimeout(r, 2500)); // longer than the call timeout
        return { action: 'accept', content: { decision: 'proceed' } };
      },
      approveSampling: async () => 'deny',
    });
    // 1 s: the server's elicitation must arrive before the timeout, also on a loaded 2-core machine
    // (400 ms was once too short there).
    const m = manager([fault('f', dir, {}, { timeoutMs: 1000 })], { clientRequests });
    await m.whenSettled();
    const r = await m.callTool('f', 'ask', {});
    expect(textOf(r)).toBe('answer: accept {"decision":"proceed"}');
    expect(seen).toEqual(['f: Proceed?']);
  });

  it('re-lists tools on tools/list_changed and emits tools_changed', async () => {
    const dir = tempDir();
    const m = manager([fault('f', dir, { FAULT_PAGE_SIZE: '4' })]);
    await m.whenSettled();
    const changed = new Promise<string>((r) => m.once('tools_changed', r));
    await m.callTool('f', 'add_tool', {});
    expect(await changed).toBe('f');
    expect(m.state('f')!.tools.map((t) => t.name)).toContain('extra_tool');
  });

  it('keeps secrets of the host environment away from third-party servers unless set in their env', async () => {
    const dir = tempDir();
    const env = { ...process.env, MY_API_KEY: 'host-key-123', GITHUB_TOKEN: 'host-gh-456', SOME_SETTING: 'visible' };
    const servers = resolveServers(
      {
        mcpServers: {
          plain: { command: process.execPath, args: [FAULT], env: { FAULT_STATE_DIR: dir } },
          given: {
            command: process.execPath,
            args: [FAULT],
            env: { FAULT_STATE_DIR: dir, GITHUB_TOKEN: '$GITHUB_TOKEN' },
          },
        },
      },
      { cwd: dir, projectTempDir: dir, env },
    ).filter((s) => !s.builtIn);
    const m = manager(servers);
    await m.whenSettled();
    const plain = JSON.parse(textOf(await m.callTool('plain', 'echo_env', {})));
    expect(plain.SOME_SETTING).toBe('visible');
    expect(plain.MY_API_KEY).toBeUndefined();
    expect(plain.GITHUB_TOKEN).toBeUndefined();
    const given = JSON.parse(textOf(await m.callTool('given', 'echo_env', {})));
    expect(given.GITHUB_TOKEN).toBe('$GITHUB_TOKEN'); // resolveServers takes settings already expanded by loadSettings
    expect(given.MY_API_KEY).toBeUndefined();
  });

  it('one failing server does not hold back the others; the reason carries stderr', async () => {
    const dir = tempDir();
    const m = manager([
      fault('bad', dir, { FAULT_CRASH_ON_START: '1' }),
      {
        alias: 'missing',
        builtIn: false,
        trust: false,
        transport: 'stdio',
        command: join(dir, 'no-such-binary'),
        timeoutMs: 1000,
      },
      fault('good', dir),
    ]);
    await m.whenSettled();
    expect(m.state('good')!.status).toBe('connected');
    expect(m.state('bad')!.status).toBe('failed');
    expect(m.state('bad')!.error).toContain('refusing to start');
    expect(m.state('bad')!.stderrTail).toContain('refusing to start');
    expect(m.state('missing')!.status).toBe('failed');
    expect(m.state('missing')!.error).toMatch(/ENOENT|not found/);
  });
});

function rmFlag(path: string) {
  rmSync(path);
}

describe('McpClientManager with the built-in servers', () => {
  it('filesystem: connects, answers roots/list, follows root changes', async () => {
    const a = tempDir();
    const b = tempDir();
    writeFileSync(join(a, 'a.txt'), 'in a');
    writeFileSync(join(b, 'b.txt'), 'in b');
    const [fs] = resolveServers({}, { cwd: a, roots: [a], projectTempDir: join(a, '.tmp') }).filter(
      (s) => s.alias === 'filesystem',
    );
    const m = manager([fs!], { roots: [a] });
    await m.whenSettled();
    expect(m.state('filesystem')!.status).toBe('connected');
    const names = m.state('filesystem')!.tools.map((t) => t.name);
    expect(names).toContain('read_file');
    expect(textOf(await m.callTool('filesystem', 'read_file', { absolute_path: join(a, 'a.txt') }))).toContain('in a');
    const outside = await m.callTool('filesystem', 'read_file', { absolute_path: join(b, 'b.txt') });
    expect(outside.isError).toBe(true);
    await m.setRoots([a, b]);
    await waitFor(
      async () => !(await m.callTool('filesystem', 'read_file', { absolute_path: join(b, 'b.txt') })).isError,
      'new root honoured',
    );
  });

  for (const name of ['shell', 'web', 'memory'] as const) {
    it(`${name}: connects and lists its tools`, async () => {
      const dir = tempDir();
      mkdirSync(join(dir, 'home'));
      const server = resolveServers(
        {},
        { cwd: dir, projectTempDir: join(dir, '.tmp'), env: { ...process.env, GEMINI_CLI_HOME: join(dir, 'home') } },
      ).find((s) => s.alias === name)!;
      const m = manager([server], { roots: [dir] });
      await m.whenSettled();
      const s = m.state(name)!;
      expect(s.status, s.error).toBe('connected');
      expect(s.tools.length).toBeGreaterThan(0);
    });
  }
});
