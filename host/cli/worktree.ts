import { spawnSync } from 'node:child_process';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { loadSettings } from '../load-settings.js';
import { FatalInputError } from '../errors.js';

/**
 * `-w/--worktree [NAME]`, Gemini CLI 0.61's (behind the same `experimental.worktrees` setting): the session
 * runs in a new git worktree, `<repo>/.gemini/worktrees/NAME` on branch `worktree-NAME`, made from HEAD.
 * When the session ends with nothing changed there (no uncommitted change, no new commit) the worktree and
 * its branch are removed again; otherwise they stay, and stderr says where.
 */
export interface Worktree {
  name: string;
  path: string;
  root: string;
  baseSha: string;
}

/** Git without the user's or the system's git config (hooks, aliases, fsmonitor), as 0.61 runs it. */
function git(args: string[], cwd: string): { ok: boolean; out: string; err: string } {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_CONFIG_')) env[k] = v;
  Object.assign(env, {
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_SYSTEM: '/dev/null',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
  });
  const r = spawnSync('git', args, { cwd, env, encoding: 'utf8' });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr || r.error?.message || '').trim() };
}

function generatedName(): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('T', '-').replace('Z', '');
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Creates the worktree and makes it the process's working directory. */
export function enterWorktree(requested: string, cwd: string = process.cwd()): Worktree {
  const experimental = loadSettings({ cwd }).merged.experimental as { worktrees?: unknown } | undefined;
  if (experimental?.worktrees !== true)
    throw new FatalInputError(
      'The --worktree flag is only available when experimental.worktrees is enabled in your settings.',
    );
  const name = requested.trim() || generatedName();
  // One folder below .gemini/worktrees and a valid branch name: nothing that climbs out or reads as an option.
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || name.includes('..') || name.endsWith('.lock'))
    throw new FatalInputError(`Invalid worktree name "${name}": use letters, digits, ".", "_" and "-".`);
  const common = git(['rev-parse', '--git-common-dir'], cwd);
  if (!common.ok) throw new Error(`Failed to create or switch to worktree: ${cwd} is not in a git repository.`);
  const root = dirname(isAbsolute(common.out) ? common.out : resolve(cwd, common.out));
  const head = git(['rev-parse', 'HEAD'], root);
  if (!head.ok) throw new Error(`Failed to create or switch to worktree: ${head.err}`);
  const path = join(root, '.gemini', 'worktrees', name);
  const add = git(['worktree', 'add', path, '-b', `worktree-${name}`], root);
  if (!add.ok) throw new Error(`Failed to create or switch to worktree: ${add.err}`);
  process.chdir(path);
  return { name, path, root, baseSha: head.out };
}

/** Removes the worktree and its branch when the session changed nothing there; returns what to tell the user. */
export function leaveWorktree(w: Worktree): string {
  const status = git(['status', '--porcelain'], w.path);
  const head = git(['rev-parse', 'HEAD'], w.path);
  if (!status.ok || !head.ok || status.out !== '' || head.out !== w.baseSha)
    return `Worktree kept: ${w.path} (branch worktree-${w.name}).`;
  process.chdir(w.root);
  const removed = git(['worktree', 'remove', w.path, '--force'], w.root);
  if (!removed.ok) return `Failed to clean up worktree ${w.path}: ${removed.err}`;
  git(['branch', '-D', `worktree-${w.name}`], w.root);
  return `Automatically cleaned up unmodified worktree: ${w.path}`;
}
