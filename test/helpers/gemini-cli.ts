import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The Gemini CLI release our behaviour is compared with (the bench uses the same prefix). */
export const GEMINI_CLI_VERSION = '0.61.0';

/**
 * The entry script of Gemini CLI 0.61, installed once into a cached temp prefix shared with
 * `npm run bench`; `{ error }` when it is absent and cannot be installed (no registry access).
 */
export function geminiCliEntry(): { entry: string } | { error: string } {
  const prefix = join(tmpdir(), `gmc-bench-gemini-cli-${GEMINI_CLI_VERSION}`);
  const pkgDir = join(prefix, 'node_modules', '@google', 'gemini-cli');
  const pkgFile = join(pkgDir, 'package.json');
  const have = () => existsSync(pkgFile) && JSON.parse(readFileSync(pkgFile, 'utf8')).version === GEMINI_CLI_VERSION;
  if (!have()) {
    mkdirSync(prefix, { recursive: true });
    const r = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        prefix,
        `@google/gemini-cli@${GEMINI_CLI_VERSION}`,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
      ],
      { encoding: 'utf8', timeout: 300_000 },
    );
    if (r.status !== 0 || !have())
      return {
        error: `npm install @google/gemini-cli@${GEMINI_CLI_VERSION} failed: ${(r.stderr ?? '').trim().slice(-300)}`,
      };
  }
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.gemini;
  return bin ? { entry: join(pkgDir, bin) } : { error: 'no bin entry in @google/gemini-cli/package.json' };
}
