import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace, type Workspace } from '../../helpers/run-host.js';

/**
 * `-w/--worktree [NAME]` as Gemini CLI 0.61's (before: "Unknown option"): with experimental.worktrees on,
 * the session runs in <repo>/.gemini/worktrees/NAME on branch worktree-NAME; a worktree left unchanged is
 * removed at the end, one with changes is kept.
 */
function repo(worktrees = true): Workspace {
  const ws = workspace();
  ws.settings({
    ...ONLY('filesystem'),
    security: { folderTrust: { enabled: false } },
    ...(worktrees ? { experimental: { worktrees: true } } : {}),
  });
  writeFileSync(join(ws.cwd, 'a.txt'), 'main\n');
  git(ws, 'init', '-q');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-qm', 'init');
  return ws;
}

const git = (ws: Workspace, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: ws.cwd, encoding: 'utf8' });

describe('-w/--worktree', () => {
  const endpoint = scriptedEndpoints();

  it('the session works in a new worktree; with changes there it is kept, with its branch', async () => {
    const ws = repo();
    const ep = await endpoint(
      reply.calls({ name: 'write_file', args: { file_path: 'new.txt', content: 'from the worktree\n' } }),
      reply.text('Written.'),
    );
    const r = await runHost(['-w', 'feat', '-y', '-p', 'write new.txt'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const path = join(ws.cwd, '.gemini', 'worktrees', 'feat');
    expect(readFileSync(join(path, 'new.txt'), 'utf8')).toBe('from the worktree\n');
    expect(existsSync(join(ws.cwd, 'new.txt'))).toBe(false);
    expect(r.stderr).toContain(`Worktree kept: ${path} (branch worktree-feat).`);
    expect(git(ws, 'branch', '--list', 'worktree-feat')).toContain('worktree-feat');
  });

  it('an unchanged worktree (a generated name) is removed with its branch when the session ends', async () => {
    const ws = repo();
    const ep = await endpoint(reply.text('Nothing to do.'));
    const r = await runHost(['-w', '-p', 'look around'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Nothing to do.');
    expect(r.stderr).toMatch(/Automatically cleaned up unmodified worktree: .*\.gemini\/worktrees\/\d{4}-/);
    expect(git(ws, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    expect(git(ws, 'branch', '--list', 'worktree-*')).toBe('');
  });

  it('is refused without experimental.worktrees, with a bad name, or outside a git repository', async () => {
    const ep = await endpoint();
    const off = await runHost(['-w', 'x', '-p', 'hi'], { ws: repo(false), url: ep.url });
    expect(off.code).toBe(42);
    expect(off.stderr).toContain(
      'The --worktree flag is only available when experimental.worktrees is enabled in your settings.',
    );
    const ws = repo();
    for (const name of ['../escape', '-b', 'a/b']) {
      const bad = await runHost([`--worktree=${name}`, '-p', 'hi'], { ws, url: ep.url });
      expect(bad.code, name).toBe(42);
      expect(bad.stderr).toContain('Invalid worktree name');
    }
    expect(git(ws, 'worktree', 'list').trim().split('\n')).toHaveLength(1);
    const plain = workspace();
    plain.settings({ ...ONLY(), experimental: { worktrees: true } });
    const none = await runHost(['-w', 'x', '-p', 'hi'], { ws: plain, url: ep.url });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('is not in a git repository');
    expect(ep.requests).toHaveLength(0);
  });
});
