import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { SettingsError } from '../config/errors.js';
import { EXIT, FatalInputError } from '../errors.js';
import { isParseArgsError } from '../cli-parse-error.js';
import { safeText } from '../safe-text.js';
import { decideTrust, trustedFoldersPath, type TrustLevel } from '../config/trust.js';
import { forgetTrust, saveTrust } from '../config/trust-save.js';

export interface TrustCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

const USAGE = `Usage:
  gemini-mcp trust [dir]            trust this folder (default: the current directory)
  gemini-mcp trust --parent [dir]   trust its parent folder and everything below it
  gemini-mcp trust --never [dir]    never trust it (workspace servers, .env and modes stay off)
  gemini-mcp trust --reset [dir]    forget the answer saved for it
  gemini-mcp trust --show [dir]     print whether it is trusted and why
`;

/** `gemini-mcp trust`: the trust prompt's answers for scripts and headless users. Exit 0, 42 usage, 52 bad file. */
export async function runTrustCommand(
  argv: string[],
  opts: TrustCommandOptions = { cwd: process.cwd() },
): Promise<number> {
  const out = opts.stdout ?? process.stdout;
  const err = opts.stderr ?? process.stderr;
  const env = opts.env ?? process.env;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        parent: { type: 'boolean' },
        never: { type: 'boolean' },
        reset: { type: 'boolean' },
        show: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) return out.write(USAGE), 0;
    const picked = (['parent', 'never', 'reset', 'show'] as const).filter((k) => values[k]);
    if (picked.length > 1 || positionals.length > 1)
      throw new FatalInputError('Give at most one of --parent, --never, --reset, --show and one folder.');
    const dir = resolve(opts.cwd, positionals[0] ?? '.');
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new FatalInputError(`${dir} is not a directory.`);
    const file = trustedFoldersPath(env);
    // A folder's own name (a cloned repository's) may carry escape sequences: shown made safe.
    const shown = safeText(dir);
    switch (picked[0]) {
      case 'show': {
        const d = decideTrust({ cwd: dir, env, enabled: true, hasWorkspaceConfig: true });
        out.write(
          `${shown}: ${d.trusted ? 'trusted' : 'not trusted'}${d.rule ? ` (rule ${d.rule.level} for ${safeText(d.rule.path)} in ${file})` : d.source === 'env' ? ' (GEMINI_CLI_TRUST_WORKSPACE)' : ' (no rule saved)'}\n`,
        );
        return EXIT.ok;
      }
      case 'reset':
        out.write(
          forgetTrust(dir, env)
            ? `Forgot the trust rule for ${shown} in ${file}.\n`
            : `No rule for exactly ${shown} in ${file}.\n`,
        );
        return EXIT.ok;
      default: {
        const level: TrustLevel =
          picked[0] === 'parent' ? 'TRUST_PARENT' : picked[0] === 'never' ? 'DO_NOT_TRUST' : 'TRUST_FOLDER';
        saveTrust(dir, level, env);
        const what =
          level === 'TRUST_PARENT'
            ? `${safeText(dirname(dir))} and every folder below it is`
            : level === 'DO_NOT_TRUST'
              ? `${shown} is not`
              : `${shown} is`;
        out.write(`${what} trusted now (saved in ${file}).\n`);
        return EXIT.ok;
      }
    }
  } catch (e) {
    if (e instanceof SettingsError) {
      err.write(`${e.message} (left unchanged)\n`);
      return e.exitCode;
    }
    if (e instanceof FatalInputError || isParseArgsError(e)) {
      err.write(`${(e as Error).message}\n${USAGE}`);
      return EXIT.input;
    }
    err.write(`Error: ${(e as Error).message}\n`);
    return EXIT.error;
  }
}
