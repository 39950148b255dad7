import { existsSync, lstatSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { matchingNames } from './dir-names.js';

/**
 * Files a sandboxed command may not read: credentials and tokens under the home directory. Paths
 * start at the home directory unless absolute; more come from the spec (`extraSecrets`, the host's
 * `tools.sandboxSecrets`) and the environment variable GEMINI_SANDBOX_SECRETS (colon-separated).
 */
const DEFAULT_SECRETS: readonly string[] = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.config/gh/hosts.yml',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.config/git/credentials',
  '.password-store',
  '.local/share/keyrings',
  // The whole of Gemini's folder, not a list of the token files in it: Gemini CLI's own token file and any
  // file a later version adds are secrets too. What a command needs from it is shown again (wrap.ts).
  '.gemini',
  '.env',
];

/** `.env`-style files in the directories above a workspace root (inside it they are the project's). */
const ENV_FILE = /^\.env(\..+)?$/;

/**
 * Paths inside a workspace root that run code later outside the sandbox (git hooks and config, shell
 * start-up files, MCP and editor configuration): read-only for commands.
 */
const PROTECTED_IN_WORKSPACE: readonly string[] = [
  '.gitmodules',
  // A root that is the home folder: git's user configuration runs programs as well.
  '.gitconfig',
  '.config/git',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.envrc',
  '.mcp.json',
  '.gemini/settings.json',
  '.gemini/commands',
  // Read by the host at the next start: its environment (GEMINI_SANDBOX, endpoints) and tool policy.
  '.gemini/.env',
  '.gemini/policies',
  '.vscode/tasks.json',
  '.vscode/settings.json',
  '.vscode/launch.json',
  '.idea',
];

const expand = (p: string, home: string) =>
  p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : isAbsolute(p) ? p : join(home, p);

/**
 * Real paths of the secrets that exist now (a symlinked secret is hidden where it really is). The
 * `.gemini` folder is hidden both under the home directory and under GEMINI_CLI_HOME, where the host
 * keeps it when it is set. A secret folder that holds a root is still hidden: the root is mounted again
 * inside it (wrap.ts orders mounts by depth).
 */
export function existingSecrets(roots: readonly string[], extra: readonly string[] = [], home = homedir()): string[] {
  const fromEnv = (process.env.GEMINI_SANDBOX_SECRETS ?? '').split(':').filter(Boolean);
  const cliHome = process.env.GEMINI_CLI_HOME;
  const gemini = cliHome
    ? DEFAULT_SECRETS.filter((p) => p === '.gemini' || p.startsWith('.gemini/')).map((p) => join(cliHome, p))
    : [];
  const listed = [...DEFAULT_SECRETS, ...extra, ...fromEnv].map((p) => expand(p, home)).concat(gemini);
  const out = new Set<string>();
  for (const p of [...listed, ...envFilesAbove(roots)]) {
    const real = realOrUndefined(p);
    if (real && real !== '/' && !roots.some((r) => real === r)) out.add(real);
  }
  return [...out];
}

/** `.env*` files in each directory above each root, up to `/`. */
function envFilesAbove(roots: readonly string[]): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  for (const root of roots) {
    for (let d = dirname(resolve(root)); !seen.has(d); d = dirname(d)) {
      seen.add(d);
      try {
        for (const name of matchingNames(d, ENV_FILE)) found.push(join(d, name));
      } catch {
        // unreadable directory: nothing to hide that we could read either
      }
      if (d === dirname(d)) break;
    }
  }
  return found;
}

export function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Inside a git directory, what git reads config or hooks from: besides `config` and `hooks`,
 * `commondir` (git takes config and hooks from the folder it names), `config.worktree`, and
 * `modules` (each submodule's own git directory, with its config and hooks). `info` is left
 * writable: exclude, attributes and sparse-checkout name no program (filter and diff drivers are
 * defined only in config).
 */
const IN_GIT_DIR: readonly string[] = ['hooks', 'config', 'config.worktree', 'commondir', 'modules'];
/** Protected only when present: a linked worktree's own `commondir` and config live here. */
const IN_GIT_DIR_IF_PRESENT: readonly string[] = ['worktrees'];

/** How deep and how wide the search for repositories nested in a root goes (it runs on every call). */
const NESTED_DEPTH = 3;
const NESTED_DIRS = 400;

export interface Protected {
  /** Protected paths that exist now: mounted read-only and checked after the call. */
  present: string[];
  /** Protected paths that do not exist: checked after the call. */
  absent: string[];
  /** Absent paths that may appear as a directory (`git init` makes a `.git`), never as a file. */
  mayBecomeDir: string[];
}

/** The protected paths of each root that exist, and those that do not (checked again after the call). */
export function protectedPaths(roots: readonly string[]): Protected {
  const out: Protected = { present: [], absent: [], mayBecomeDir: [] };
  for (const root of roots) {
    for (const rel of PROTECTED_IN_WORKSPACE) {
      const p = join(root, rel);
      (existsSync(p) ? out.present : out.absent).push(p);
    }
    gitPaths(join(root, '.git'), true, out);
    for (const dotGit of nestedGitEntries(root)) gitPaths(dotGit, false, out);
  }
  return out;
}

/**
 * A `.git` file (`gitdir: <path>`) sends git anywhere, so it is itself protected, and a root's
 * missing `.git` may not become one. For a `.git` directory, what git runs code from.
 */
function gitPaths(dotGit: string, isRoot: boolean, out: Protected): void {
  let st: ReturnType<typeof lstatSync> | undefined;
  try {
    st = lstatSync(dotGit);
  } catch {
    st = undefined;
  }
  if (!st) {
    if (!isRoot) return;
    out.absent.push(dotGit);
    out.mayBecomeDir.push(dotGit);
  } else if (!st.isDirectory()) {
    out.present.push(dotGit);
    return;
  }
  for (const rel of IN_GIT_DIR) {
    const p = join(dotGit, rel);
    (st && existsSync(p) ? out.present : out.absent).push(p);
  }
  for (const rel of IN_GIT_DIR_IF_PRESENT) {
    const p = join(dotGit, rel);
    if (st && existsSync(p)) out.present.push(p);
  }
}

/** `.git` entries of repositories below a root (bounded: the walk runs before every call). */
function nestedGitEntries(root: string): string[] {
  const found: string[] = [];
  let budget = NESTED_DIRS;
  const walk = (dir: string, depth: number) => {
    if (depth > NESTED_DEPTH || --budget < 0) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name === '.git' && depth > 0) found.push(join(dir, e.name));
      else if (e.isDirectory() && e.name !== '.git' && e.name !== 'node_modules') walk(join(dir, e.name), depth + 1);
    }
  };
  walk(root, 0);
  return found;
}
