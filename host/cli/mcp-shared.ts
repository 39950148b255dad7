import { resolve } from 'node:path';
import { geminiHome, userSettingsPath, workspaceSettingsPath } from '../config/settings.js';
import { EXIT, FatalInputError } from '../errors.js';

export const EXIT_OK = EXIT.ok;
export const EXIT_ERROR = EXIT.error;
export const EXIT_CONFIG = EXIT.config;

export interface McpCommandOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  /** Bound on waiting for servers in `mcp list` (default 35 s: the connect timeout plus a margin). */
  settleTimeoutMs?: number;
}

export type Scope = 'user' | 'project';

export function parseScope(flag: string, value: string): Scope {
  if (value !== 'user' && value !== 'project')
    throw new FatalInputError(`${flag} must be "user" or "project", not "${value}".`);
  return value;
}

/** The settings file a scope edits; the project scope is refused in the home directory (it is the user file). */
export function settingsPathFor(scope: Scope, opts: McpCommandOptions): string {
  const env = opts.env ?? process.env;
  const user = userSettingsPath(geminiHome(env));
  if (scope === 'user') return user;
  const project = workspaceSettingsPath(opts.cwd);
  if (resolve(project) === resolve(user)) {
    throw new FatalInputError(
      'The current directory is the home directory: use --scope user to edit the user settings.',
    );
  }
  return project;
}
