import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './paths.js';

/** Gemini CLI 0.61, pinned with its own lockfile in test/gemini-cli and installed there on first use. */
const FOLDER = join(REPO, 'test/gemini-cli');
const PKG = join(FOLDER, 'node_modules/@google/gemini-cli/package.json');
const VERSION = '0.61.0';

/**
 * The path of Gemini CLI 0.61's entry script (`GEMINI_CLI_061` overrides it), installing it from the npm
 * registry when absent. Undefined, with the reason, only when the install cannot run: a test that compares
 * against Gemini CLI must then fail in CI (which reaches the registry) rather than pass without comparing.
 */
export function geminiCli(): { entry?: string; why?: string } {
  if (process.env.GEMINI_CLI_061) return { entry: process.env.GEMINI_CLI_061 };
  const have = () => existsSync(PKG) && JSON.parse(readFileSync(PKG, 'utf8')).version === VERSION;
  if (!have()) {
    try {
      execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: FOLDER,
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 300_000,
      });
    } catch (err) {
      return { why: `npm ci in test/gemini-cli failed: ${(err as Error).message.slice(0, 300)}` };
    }
  }
  if (!have()) return { why: 'npm ci did not install @google/gemini-cli 0.61.0' };
  const pkg = JSON.parse(readFileSync(PKG, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.gemini;
  return bin ? { entry: join(FOLDER, 'node_modules/@google/gemini-cli', bin) } : { why: 'no bin in its package.json' };
}

export const GEMINI_CLI_VERSION = VERSION;

/** `geminiCli()` as `{ entry }` or `{ error }`. */
export function geminiCliEntry(): { entry: string } | { error: string } {
  const { entry, why } = geminiCli();
  return entry ? { entry } : { error: why ?? 'unknown' };
}
