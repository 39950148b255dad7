import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';

/**
 * The other half of the git hardening: with the real shell server and the system's git (2.39 on
 * Debian 12, where an empty `diff.external` is a program that cannot run), the everyday commands
 * print the real diff, in a plain repository and in one whose configuration names programs that must
 * not run; the user's aliases and colours survive the hidden global file.
 */
const hasBwrap = spawnSync('bwrap', ['--version']).status === 0;

for (const [title, serverArgs] of [
  ['git diff and friends work in commands the shell server runs', []],
  ...(hasBwrap ? [['… and in its sandbox (--sandbox)', ['--sandbox']] as const] : []),
] as const) {
  describe(title, () => {
    const home = tempDir('git-diff-home-');
    const root = tempDir('git-diff-root-');
    const marks = tempDir('git-diff-marks-');
    let srv: StdioServer;
    const run = async (command: string) => textOf(await srv.call('run_shell_command', { command }));
    const mark = (name: string) => join(marks, name);
    const plant = (name: string) => `touch ${mark(name)}; echo HOSTILE-${name}`;
    const git = (cwd: string, ...args: string[]) =>
      execFileSync('git', args, { cwd, env: { ...process.env, HOME: home, GIT_CONFIG_NOSYSTEM: '1' }, stdio: 'pipe' });

    /** A repository with one commit and an unstaged change: a.txt gains a line "two". */
    function repo(name: string): string {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      git(dir, 'init', '-q');
      writeFileSync(join(dir, 'a.txt'), 'one\n');
      git(dir, 'add', 'a.txt');
      git(dir, 'commit', '-qm', 'first');
      writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n');
      git(dir, 'commit', '-qam', 'second');
      writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
      return dir;
    }

    /** Each command's output must be the diff git itself prints, whatever the repository configured. */
    async function expectRealDiffs(dir: string) {
      const native = git(
        dir,
        '-c',
        'core.pager=cat',
        'diff',
        '--no-color',
        '--no-ext-diff',
        '--no-textconv',
      ).toString();
      expect(native).toContain('+three');
      const name = dir.slice(root.length + 1);
      const diff = await run(`cd ${name} && git diff`);
      expect(diff).toContain(native.trim());
      expect(diff).not.toMatch(/external diff died|cannot run|HOSTILE/);
      expect(await run(`cd ${name} && git diff --stat`)).toContain('a.txt | 1 +');
      const log = await run(`cd ${name} && git log -p -1`);
      expect(log).toContain('second');
      expect(log).toContain('+two');
      const show = await run(`cd ${name} && git show HEAD~1`);
      expect(show).toContain('first');
      expect(show).toContain('+one');
      // Through a program the parser cannot see into: the repository was not listed.
      expect(await run(`cd ${name} && bash -c 'git diff'`)).toContain(native.trim());
      // `git add -p` shows the hunk before asking; "q" answers without staging.
      const add = await run(`cd ${name} && printf 'q\\n' | git add -p`);
      expect(add).toContain('+three');
      expect(add).toContain('Stage this hunk');
      expect(add).not.toContain('HOSTILE');
    }

    beforeAll(async () => {
      writeFileSync(
        join(home, '.gitconfig'),
        [
          '[user]\n\tname = Home User\n\temail = home@example.invalid',
          '[alias]\n\tst = status --short\n\tboom = !touch ' + mark('alias'),
          '[color]\n\tui = always',
          `[diff]\n\texternal = ${plant('global-external')}`,
        ].join('\n'),
      );
      srv = await startStdioServer(ENTRY.shell, { args: ['--root', root, ...serverArgs], env: { HOME: home } });
    });
    afterAll(() => srv?.close());

    it('a plain repository: git diff, --stat, log -p, show and add -p print the real diff', async () => {
      await expectRealDiffs(repo('plain'));
    });

    it("a hostile repository's diff.external, diff.<driver>.command and textconv never run", async () => {
      const dir = repo('hostile');
      git(dir, 'config', '--local', 'diff.external', plant('external'));
      git(dir, 'config', '--local', 'diff.evil.command', plant('command'));
      git(dir, 'config', '--local', 'diff.evil.textconv', plant('textconv'));
      git(dir, 'config', '--local', 'interactive.diffFilter', plant('filter'));
      writeFileSync(join(dir, '.gitattributes'), 'a.txt diff=evil\n');
      git(dir, 'add', '.gitattributes');
      await expectRealDiffs(dir);
      await run('cd hostile && git diff --ext-diff HEAD~1; git log -p --ext-diff -1; git show --ext-diff');
      for (const name of ['external', 'command', 'textconv', 'filter', 'global-external']) {
        expect({ name, ran: existsSync(mark(name)) }).toEqual({ name, ran: false });
      }
    });

    it("keeps the user's aliases and colours, but not an alias that runs a shell command", async () => {
      repo('alias');
      const out = await run('cd alias && git st && git config color.ui && git boom; echo "exit=$?"');
      expect(out).toContain(' M a.txt');
      expect(out).toContain('always');
      expect(out).toMatch(/'boom' is not a git command[\s\S]*exit=1/);
      expect(existsSync(mark('alias'))).toBe(false);
    });
  });
}
