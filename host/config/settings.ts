import { existsSync, readFileSync } from 'node:fs';
import { platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { SettingsSchema, V1_RENAMES, type Settings, type SettingsScope } from './settings-schema.js';
import { expandDeep, stripJsonComments } from './expand.js';
import { SettingsError } from './errors.js';
import { validateAlias } from './servers.js';
import { geminiHome } from './paths.js';

export type { Settings, McpServerSettings, SettingsScope } from './settings-schema.js';

export { SettingsError };
export { geminiHome, defaultProjectTempDir } from './paths.js';
export { resolveServers, resolveServerSet, validateAlias, packageRoot } from './servers.js';
export type { ResolvedServerConfig, ResolveServersOptions, BlockedServer, ServerSet } from './servers.js';

export interface SettingsFileRef {
  path: string;
  scope: SettingsScope;
}

export interface LoadedSettings {
  merged: Settings;
  files: SettingsFileRef[];
  warnings: string[];
}

export interface LoadSettingsOptions {
  cwd: string;
  /** Overrides the home directory (else `GEMINI_CLI_HOME`, else the OS home). */
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
}


export function userSettingsPath(home: string): string {
  return join(home, '.gemini', 'settings.json');
}

export function workspaceSettingsPath(cwd: string): string {
  return join(resolve(cwd), '.gemini', 'settings.json');
}

function systemSettingsPath(env: NodeJS.ProcessEnv): string {
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

export function loadSettings(opts: LoadSettingsOptions): LoadedSettings {
  const env = opts.env ?? process.env;
  const warnings: string[] = [];
  const files: SettingsFileRef[] = [];
  let merged: Record<string, unknown> = {};
  for (const ref of settingsFiles(opts)) {
    if (!existsSync(ref.path)) continue;
    const layer = readSettingsFile(ref.path, env, warnings);
    files.push(ref);
    merged = mergeLayer(merged, layer);
  }
  return { merged: merged as Settings, files, warnings };
}

/** Reads, expands and validates one settings file. */
export function readSettingsFile(path: string, env: NodeJS.ProcessEnv = process.env, warnings: string[] = []): Settings {
  let raw: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    raw = text.trim() === '' ? {} : JSON.parse(stripJsonComments(text));
  } catch (err) {
    throw new SettingsError(`Invalid settings file ${path}: ${(err as Error).message}`, path);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new SettingsError(`Invalid settings file ${path}: the top level must be a JSON object`, path);
  }
  const upgraded = applyV1Renames(raw as Record<string, unknown>, path, warnings);
  const parsed = SettingsSchema.safeParse(expandDeep(upgraded, env));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.path.map(String).join('.');
    throw new SettingsError(`Invalid settings in ${path}: "${key}": ${issue.message}`, path, key);
  }
  for (const alias of Object.keys(parsed.data.mcpServers ?? {})) {
    const problem = validateAlias(alias);
    if (problem) throw new SettingsError(`Invalid settings in ${path}: "mcpServers.${alias}": ${problem}`, path, `mcpServers.${alias}`);
  }
  return parsed.data;
}

function applyV1Renames(obj: Record<string, unknown>, path: string, warnings: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...obj };
  for (const [v1, v2] of V1_RENAMES) {
    if (!(v1 in obj)) continue;
    const [group, key] = v2.split('.') as [string, string];
    const current = out[group];
    if (current !== undefined && (typeof current !== 'object' || current === null || Array.isArray(current))) continue;
    const target = { ...((current as Record<string, unknown> | undefined) ?? {}) };
    if (!(key in target)) {
      target[key] = obj[v1];
      warnings.push(`${path}: old key "${v1}" read as "${v2}"`);
    }
    out[group] = target;
    delete out[v1];
  }
  return out;
}

const UNION_ARRAYS = new Set(['context.includeDirectories']);

/** Objects merge deeply, scalars and arrays are replaced; `mcpServers` entries replace whole per alias. */
export function mergeLayer(base: Record<string, unknown>, over: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const prev = out[key];
    if (path === 'mcpServers' && isPlainObject(prev) && isPlainObject(value)) {
      out[key] = { ...prev, ...value };
    } else if (UNION_ARRAYS.has(path) && Array.isArray(prev) && Array.isArray(value)) {
      out[key] = [...new Set([...prev, ...value])];
    } else if (isPlainObject(prev) && isPlainObject(value)) {
      out[key] = mergeLayer(prev, value, path);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
