import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * Git's configuration names programs to run. With the real shell server and real repositories in
 * temp directories, each way a repository (or an earlier allowed command) can plant one must leave
 * the marker file uncreated.
 */
describe('git configuration cannot make allowed git commands run programs', () => {
  const home = tempDir('git-home-');
  const root = tempDir('git-root-');
  const marks = tempDir('git-marks-');
  let srv: StdioServer;
  const run = async (command: string) => textOf(await srv.call('run_shell_command', { command }));
  const mark = (name: string) => join(marks, name);
  const plant = (name: string) => `touch ${mark(name)}; false`;
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, { cwd, env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'pipe' });

  function repo(name: string): string {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    git(dir, 'add', 'a.txt');
    git(dir, 'commit', '-qm', 'first');
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
    return dir;
  }

  beforeAll(async () => {
    writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Home User\n\temail = home@example.invalid\n');
    srv = await startStdioServer(ENTRY.shell, { args: ['--root', root], env: { HOME: home } });
  });
  afterAll(() => srv?.close());

  it('the reported attack: git log --output writes core.fsmonitor, the next git status runs nothing', async () => {
    const dir = repo('attack');
    const rel = 'attack';
    const format = `[core]%n%x09repositoryformatversion = 0%n%x09fsmonitor = "${plant('fsmonitor')}"%n[diff]%n%x09external = "${plant('external')}"`;
    await run(`cd ${rel} && git log -1 --format='${format}' --output=.git/config`);
    expect(git(dir, 'config', '--local', 'core.fsmonitor').toString()).toContain('touch');
    expect(await run(`cd ${rel} && git status --short`)).toContain('M a.txt');
    await run(`cd ${rel} && git log -p -1 --ext-diff; git diff --ext-diff`);
    expect(existsSync(mark('fsmonitor'))).toBe(false);
    expect(existsSync(mark('external'))).toBe(false);
  });

  it('a repository that ships hooks, drivers, helpers and editors runs none of them', async () => {
    const dir = repo('shipped');
    const set = (k: string, v: string) => git(dir, 'config', '--local', k, v);
    set('core.fsmonitor', plant('fsmonitor2'));
    set('core.pager', plant('pager'));
    set('diff.external', plant('external2'));
    set('diff.evil.textconv', plant('textconv'));
    set('diff.evil.command', plant('diffcmd'));
    set('filter.evil.clean', plant('clean'));
    set('filter.evil.smudge', plant('smudge'));
    set('credential.helper', plant('credential'));
    set('credential.https://example.invalid.helper', plant('credential-url'));
    set('core.editor', plant('editor'));
    set('core.sshCommand', plant('ssh'));
    mkdirSync(join(dir, 'hooks'));
    writeFileSync(join(dir, 'hooks', 'pre-commit'), `#!/bin/sh\n${plant('hook')}\n`, { mode: 0o755 });
    writeFileSync(join(dir, '.git', 'hooks', 'post-commit'), `#!/bin/sh\n${plant('hook-default')}\n`, { mode: 0o755 });
    set('core.hooksPath', join(dir, 'hooks'));
    writeFileSync(join(dir, '.gitattributes'), '*.txt diff=evil filter=evil\n');

    await run('cd shipped && git status && git diff && git log -p && git show HEAD && git add -A && git diff --cached');
    await run('cd shipped && git commit -qm second && git log -1 --format=%an && git commit --amend -q');
    await run("cd shipped && printf 'protocol=https\\nhost=example.invalid\\n\\n' | git credential fill");
    await run('cd shipped && git ls-remote ssh://nobody@127.0.0.1:1/x');
    for (const name of [
      'fsmonitor2',
      'pager',
      'external2',
      'textconv',
      'diffcmd',
      'clean',
      'smudge',
      'credential',
      'credential-url',
      'editor',
      'ssh',
      'hook',
      'hook-default',
    ]) {
      expect({ name, ran: existsSync(mark(name)) }).toEqual({ name, ran: false });
    }
  });

  it('reaches nested repositories named with cd and git -C', async () => {
    const outer = repo('outer');
    const inner = repo('outer/inner');
    for (const dir of [outer, inner]) {
      git(dir, 'config', '--local', 'diff.nested.textconv', plant(`textconv-${dir === inner ? 'inner' : 'outer'}`));
      writeFileSync(join(dir, '.gitattributes'), '*.txt diff=nested\n');
    }
    await run('cd outer/inner && git diff; git -C .. diff; cd .. && git diff');
    await run('git -C outer/inner log -p');
    expect(existsSync(mark('textconv-inner'))).toBe(false);
    expect(existsSync(mark('textconv-outer'))).toBe(false);
  });

  it('keeps the user identity from the global file, which the command itself no longer reads', async () => {
    const dir = repo('identity');
    rmSync(join(dir, 'a.txt'));
    const out = await run(
      'cd identity && git commit -qam gone && git log -1 --format=%an/%ae && git config --global --list | wc -l',
    );
    expect(out).toContain('Home User/home@example.invalid');
  });

  it('plain commands still see the user environment, without the model key', async () => {
    const out = await run('echo "$GIT_CONFIG_GLOBAL|$GIT_PAGER|$HOME|${GEMINI_API_KEY-unset}"');
    expect(out).toContain(`/dev/null|cat|${home}|unset`);
  });
});
