import { platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { geminiHome } from './paths.js';
import type { SettingsScope } from './settings-schema.js';

/** Where the settings layers live; kept free of the schema so start-up checks can read it cheaply. */
export interface SettingsFileRef {
  path: string;
  scope: SettingsScope;
}

export interface LoadSettingsOptions {
  cwd: string;
  /** Overrides the home directory (else `GEMINI_CLI_HOME`, else the OS home). */
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  /** `--skip-trust`: treat the folder as trusted for this run without saving anything. */
  skipTrust?: boolean;
  /** `-e/--extensions a,b` (or `none`): only these extensions for this run. */
  extensions?: string[];
}

export function userSettingsPath(home: string): string {
  return join(home, '.gemini', 'settings.json');
}

export function workspaceSettingsPath(cwd: string): string {
  return join(resolve(cwd), '.gemini', 'settings.json');
}

export function systemSettingsPath(env: NodeJS.ProcessEnv): string {
  if (env.GEMINI_CLI_SYSTEM_SETTINGS_PATH) return env.GEMINI_CLI_SYSTEM_SETTINGS_PATH;
  switch (platform()) {
    case 'darwin':
      return '/Library/Application Support/GeminiCli/settings.json';
    case 'win32':
      return 'C:\\ProgramData\\gemini-cli\\settings.json';
    default:
      return '/etc/gemini-cli/settings.json';
  }
}

function systemDefaultsPath(env: NodeJS.ProcessEnv): string {
  return env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH || join(dirname(systemSettingsPath(env)), 'system-defaults.json');
}

/** The layer files in application order (later wins). */
export function settingsFiles(opts: LoadSettingsOptions): SettingsFileRef[] {
  const env = opts.env ?? process.env;
  const user = userSettingsPath(geminiHome(env, opts.homeDir));
  const workspace = workspaceSettingsPath(opts.cwd);
  const files: SettingsFileRef[] = [
    { path: systemDefaultsPath(env), scope: 'system-defaults' },
    { path: user, scope: 'user' },
  ];
  // Running in the home directory must not read the user file twice as "workspace".
  if (resolve(workspace) !== resolve(user)) files.push({ path: workspace, scope: 'workspace' });
  files.push({ path: systemSettingsPath(env), scope: 'system' });
  return files;
}
