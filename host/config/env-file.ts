import { existsSync } from 'node:fs';
import { ConfigFileError, readConfigFile } from './config-file.js';
import { dirname, join, resolve } from 'node:path';
import { parseEnv } from 'node:util';

/**
 * `.env` files, found as Gemini CLI finds them: walking up from the working directory, the first
 * directory with `.gemini/.env` or `.env` wins (the `.gemini` one first); with none, `~/.gemini/.env`
 * then `~/.env`. Variables already set in the environment are never overwritten.
 */

export interface EnvFile {
  path: string;
  /** Found in the project (not the home directory): ignored while the folder is untrusted. */
  workspace: boolean;
}

/** `~/.gemini/.env`, else `~/.env`: the user's own files, read whatever the folder's trust. */
export function homeEnvFile(home: string): EnvFile | undefined {
  for (const path of [join(home, '.gemini', '.env'), join(home, '.env')]) {
    if (existsSync(path)) return { path, workspace: false };
  }
  return undefined;
}

/** The `.env` file that applies to `cwd`, or undefined. */
export function findEnvFile(cwd: string, home: string): EnvFile | undefined {
  const homeDir = resolve(home);
  let dir = resolve(cwd);
  for (;;) {
    for (const path of [join(dir, '.gemini', '.env'), join(dir, '.env')]) {
      if (existsSync(path)) return { path, workspace: dir !== homeDir };
    }
    const up = dirname(dir);
    if (up === dir) return homeEnvFile(homeDir);
    dir = up;
  }
}

/**
 * The file's variables; an unreadable file contributes nothing (Gemini CLI ignores it quietly too), but
 * one that is not a regular file or is oversized is refused with an error naming it (ConfigFileError).
 */
export function readEnvFile(path: string): Record<string, string> {
  try {
    return parseEnv(readConfigFile(path) ?? '') as Record<string, string>;
  } catch (e) {
    if (e instanceof ConfigFileError && e.reason === 'refused') throw e;
    return {};
  }
}

/** The environment with the applicable `.env` file's variables beneath the existing ones. */
export function withEnvFile(env: NodeJS.ProcessEnv, file: EnvFile | undefined): NodeJS.ProcessEnv {
  if (!file) return env;
  return { ...readEnvFile(file.path), ...env };
}
