import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * Files a sandboxed command may not read: credentials and tokens under the home directory. Paths
 * start at the home directory unless absolute; more come from the spec (`extraSecrets`, the host's
 * `tools.sandboxSecrets`) and the environment variable GEMINI_SANDBOX_SECRETS (colon-separated).
 */
export const DEFAULT_SECRETS: readonly string[] = [
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
  '.gemini/oauth_creds.json',
  '.gemini/google_accounts.json',
  '.gemini/mcp-oauth-tokens.json',
  '.gemini/mcp-oauth-tokens-v2.json',
  '.gemini/.env',
  '.env',
];

/** `.env`-style files in the directories above a workspace root (inside it they are the project's). */
const ENV_FILE = /^\.env(\..+)?$/;

/**
 * Paths inside a workspace root that run code later outside the sandbox (git hooks and config, shell
 * start-up files, MCP and editor configuration): read-only for commands.
 */
export const PROTECTED_IN_WORKSPACE: readonly string[] = [
  '.git/hooks',
  '.git/config',
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
  '.vscode/tasks.json',
  '.vscode/settings.json',
  '.vscode/launch.json',
  '.idea',
];

const expand = (p: string, home: string) =>
  p === '~' ? home : p.startsWith('~/') ? join(home, p.slice(2)) : isAbsolute(p) ? p : join(home, p);

/** Real paths of the secrets that exist now (a symlinked secret is hidden where it really is). */
export function existingSecrets(roots: readonly string[], extra: readonly string[] = [], home = homedir()): string[] {
  const fromEnv = (process.env.GEMINI_SANDBOX_SECRETS ?? '').split(':').filter(Boolean);
  const listed = [...DEFAULT_SECRETS, ...extra, ...fromEnv].map((p) => expand(p, home));
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
        for (const name of readdirSync(d)) if (ENV_FILE.test(name)) found.push(join(d, name));
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

/** The protected paths of each root that exist, and those that do not (checked again after the call). */
export function protectedPaths(roots: readonly string[]): { present: string[]; absent: string[] } {
  const present: string[] = [];
  const absent: string[] = [];
  for (const root of roots) {
    for (const rel of PROTECTED_IN_WORKSPACE) {
      const p = join(root, rel);
      (existsSync(p) ? present : absent).push(p);
    }
  }
  return { present, absent };
}
