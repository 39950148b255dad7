import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the host keeps its files. Node built-ins only, so the terminal UI can find the input history
 * before settings (and zod) load.
 */

/** The directory that holds `.gemini/`: `GEMINI_CLI_HOME` moves it (tests, sandboxes). */
export function geminiHome(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return homeDir ?? (env.GEMINI_CLI_HOME || homedir());
}

/** `~/.gemini/mcp-oauth-tokens.json`: remote MCP servers' OAuth tokens and client registrations (mode 0600). */
export function oauthTokenFile(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return join(geminiHome(env, homeDir), '.gemini', 'mcp-oauth-tokens.json');
}

const projectHash = (cwd: string) => createHash('sha256').update(resolve(cwd)).digest('hex');

/** `~/.gemini/tmp/mcp-listings`: what each MCP server offered when it last connected (host/mcp/listing-cache.ts). */
export function listingCacheDir(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return join(geminiHome(env, homeDir), '.gemini', 'tmp', 'mcp-listings');
}

/** `~/.gemini/tmp/<sha256 of the project root>`: truncated outputs, input history. */
export function defaultProjectTempDir(cwd: string, env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return join(geminiHome(env, homeDir), '.gemini', 'tmp', projectHash(cwd));
}

/**
 * The project temp dir, created private (0700, whatever the umask; one made by an earlier version is made
 * private too): it holds sessions, saved tool outputs, checkpoints and input history. Under the OS temp
 * dir when the home is not writable.
 */
export function ensureProjectTempDir(cwd: string, env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  const preferred = defaultProjectTempDir(cwd, env, homeDir);
  try {
    makePrivateDir(preferred);
    return preferred;
  } catch {
    const fallback = join(tmpdir(), 'gemini-mcp', projectHash(cwd));
    makePrivateDir(join(tmpdir(), 'gemini-mcp'));
    makePrivateDir(fallback);
    return fallback;
  }
}

function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
