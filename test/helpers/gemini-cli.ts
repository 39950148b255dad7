import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './paths.js';
import { collect, type HostRun, type Workspace } from './run-host.js';

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

/**
 * Gemini CLI 0.61 run headless, offline (a one-reply `--fake-responses` script), with `home` as its home:
 * what it prints on a settings file another program wrote. `stdout` holds "ok" when it ran the prompt.
 */
export function runGeminiCliOn(
  entry: string,
  home: string,
  cwd: string,
): { code: number | null; stdout: string; stderr: string } {
  const script = join(home, 'gemini-cli-reply.jsonl');
  const reply = {
    candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 }],
  };
  writeFileSync(script, `${JSON.stringify({ method: 'generateContentStream', response: [reply] })}\n`);
  const r = spawnSync(process.execPath, [entry, '-m', 'gemini-2.5-flash', '-p', 'hi', '--fake-responses', script], {
    cwd,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      HOME: home,
      GEMINI_CLI_HOME: home,
      GEMINI_API_KEY: 'test-key',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Gemini CLI 0.61 answers a prompt on the settings in `home` and says nothing against them (`unwanted`
 * names what must not appear on its stderr). Outside CI a Gemini CLI that cannot be installed skips the
 * check with a warning; in CI, which reaches the registry, it fails.
 */
export function expectGeminiCliAccepts(home: string, cwd: string, unwanted: RegExp): void {
  const { entry, why } = geminiCli();
  if (!entry && !process.env.CI) return void console.warn(`Gemini CLI comparison skipped: ${why}`);
  expect(entry, why).toBeDefined();
  const r = runGeminiCliOn(entry!, home, cwd);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toContain('ok');
  expect(r.stderr).not.toMatch(unwanted);
}

/**
 * Gemini CLI 0.61 run headless in the workspace against the scripted endpoint at `url` (its home is the
 * workspace's; the folder trusted). Asynchronous: the scripted endpoint answers from this process.
 */
export function runGeminiCliAgainst(entry: string, ws: Workspace, url: string, args: string[]): Promise<HostRun> {
  const child = spawn(process.execPath, [entry, '-m', 'gemini-2.5-flash', ...args], {
    cwd: ws.cwd,
    env: {
      ...process.env,
      HOME: ws.home,
      GEMINI_CLI_HOME: ws.home,
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: url,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return collect(child).done;
}
