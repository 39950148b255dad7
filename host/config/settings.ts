import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readConfigFile } from './config-file.js';
import { SettingsSchema, V1_RENAMES, type Settings } from './settings-schema.js';
import { expandDeep } from './expand.js';
import { settingsSyntaxError } from './settings-precheck.js';
import { parseJsonc } from './json-location.js';
import { SettingsError } from './errors.js';
import { unknownKeyWarnings } from './unknown-settings.js';
import { decideTrust, type TrustDecision } from './trust.js';
import { findEnvFile, homeEnvFile, withEnvFile } from './env-file.js';
import { filterUntrustedWorkspace, withoutFolderTrustKey } from './untrusted-workspace.js';
import { geminiHome } from './paths.js';
import { settingsFiles, type LoadSettingsOptions, type SettingsFileRef } from './settings-files.js';

export type { Settings, McpServerSettings, SettingsScope } from './settings-schema.js';
export {
  settingsFiles,
  userSettingsPath,
  workspaceSettingsPath,
  type LoadSettingsOptions,
  type SettingsFileRef,
} from './settings-files.js';

export { SettingsError };
export { geminiHome, defaultProjectTempDir } from './paths.js';
export { resolveServers, resolveServerSet } from './servers.js';
export { packageRoot } from './builtin-servers.js';
export { validateAlias } from './server-names.js';
export type { TrustDecision } from './trust.js';
export type { ResolvedServerConfig, ResolveServersOptions, BlockedServer, ServerSet } from './servers.js';

/** The settings files merged, with the folder's trust and environment; extensions are added by host/load-settings.ts. */
export interface LoadedSettingsFiles {
  merged: Settings;
  files: SettingsFileRef[];
  warnings: string[];
  /** Problems the user should see at start (unknown keys, likely typos); warnings above are for -d. */
  notices: string[];
  /** Whether this folder is trusted, and why. */
  trust: TrustDecision;
  /** What an untrusted folder's workspace settings and `.env` tried to set and did not (empty when trusted). */
  skipped: string[];
  /** Workspace `mcpServers` names that were skipped. */
  skippedServers: string[];
  /** The environment with the applicable `.env` file's variables beneath the existing ones. */
  env: NodeJS.ProcessEnv;
  /** The `.env` file that was read, if any. */
  envFile?: string;
}

export function loadSettingsFiles(opts: LoadSettingsOptions): LoadedSettingsFiles {
  const baseEnv = opts.env ?? process.env;
  const warnings: string[] = [];
  const notices: string[] = [];
  const raw = settingsFiles(opts)
    .filter((ref) => existsSync(ref.path))
    .map((ref) => ({ ref, layer: readRawLayer(ref, warnings) }));
  for (const { ref, layer } of raw)
    if (!(layer instanceof SettingsError)) notices.push(...unknownKeyWarnings(layer, ref.path));
  const home = geminiHome(baseEnv, opts.homeDir);
  const envFile = findEnvFile(opts.cwd, home);
  const workspace = raw.find((r) => r.ref.scope === 'workspace');
  const trust = decideTrust({
    cwd: opts.cwd,
    env: baseEnv,
    homeDir: opts.homeDir,
    skipTrust: opts.skipTrust,
    enabled: folderTrustEnabled(raw.filter((r) => r.ref.scope !== 'workspace').map((r) => r.layer)),
    hasWorkspaceConfig: !!workspace || !!envFile?.workspace || hasProjectContributions(opts.cwd, home),
  });
  const skipped: string[] = [];
  const skippedServers: string[] = [];
  if (!trust.trusted && hasProjectContributions(opts.cwd, home))
    skipped.push('project custom commands and skills (.gemini/commands, .gemini/skills, .claude/…)');
  let usedEnvFile = envFile;
  if (!trust.trusted && envFile?.workspace) {
    skipped.push(`.env file ${envFile.path}`);
    usedEnvFile = homeEnvFile(home);
  }
  const env = withEnvFile(baseEnv, usedEnvFile);
  const files: SettingsFileRef[] = [];
  let merged: Record<string, unknown> = {};
  for (const { ref, layer } of raw) {
    let data = layer;
    if (ref.scope === 'workspace') {
      if (data instanceof SettingsError) {
        if (trust.trusted) throw data;
        skipped.unshift(`${ref.path} (it does not parse: ${data.message})`);
        continue;
      }
      data = withoutFolderTrustKey(data);
      if (!trust.trusted) {
        const filtered = filterUntrustedWorkspace(data);
        data = filtered.layer;
        skipped.unshift(...filtered.skipped);
        skippedServers.push(...filtered.servers);
      }
    }
    if (data instanceof SettingsError) throw data;
    let valid: Settings;
    try {
      valid = validateLayer(data, ref.path, env);
    } catch (err) {
      // An untrusted folder's mistakes cannot stop the run: its file is skipped like one that does not parse.
      if (ref.scope !== 'workspace' || trust.trusted || !(err instanceof SettingsError)) throw err;
      skipped.unshift(`${ref.path} (${err.message})`);
      continue;
    }
    files.push(ref);
    merged = mergeLayer(merged, valid);
  }
  return {
    merged: merged as Settings,
    files,
    warnings,
    notices,
    trust,
    skipped,
    skippedServers,
    env,
    envFile: usedEnvFile?.path,
  };
}

/** Project commands, skills or agents are workspace configuration too: a folder that has them must be trusted first. */
function hasProjectContributions(cwd: string, home: string): boolean {
  const project = resolve(cwd);
  if (project === resolve(home)) return false;
  return PROJECT_CONTRIBUTION_DIRS.some((d) => existsSync(join(project, d)));
}

const PROJECT_CONTRIBUTION_DIRS = [
  // Policy files of a workspace allow or deny tools at the workspace tier: trust first, like its settings.
  '.gemini/policies',
  '.gemini/commands',
  '.gemini/skills',
  '.claude/commands',
  '.claude/skills',
  '.agents/skills',
  // A project agent is a system prompt and a tool list someone else chose.
  '.gemini/agents',
  '.claude/agents',
];

/** `security.folderTrust.enabled` from the layers that may set it (default on). */
function folderTrustEnabled(layers: Array<Record<string, unknown> | SettingsError>): boolean {
  let enabled = true;
  for (const layer of layers) {
    if (layer instanceof SettingsError) continue;
    const v = (layer.security as { folderTrust?: { enabled?: unknown } } | undefined)?.folderTrust?.enabled;
    if (typeof v === 'boolean') enabled = v;
  }
  return enabled;
}

/** Parses one file and upgrades v1 keys; a workspace file's error is kept for the trust decision. */
function readRawLayer(ref: SettingsFileRef, warnings: string[]): Record<string, unknown> | SettingsError {
  try {
    return applyV1Renames(parseFile(ref.path), ref.path, warnings);
  } catch (err) {
    if (ref.scope === 'workspace' && err instanceof SettingsError) return err;
    throw err;
  }
}

function parseFile(path: string): Record<string, unknown> {
  let raw: unknown;
  try {
    const text = readConfigFile(path) ?? '';
    raw = text.trim() === '' ? {} : parseJsonc(text);
  } catch (err) {
    if (err instanceof SettingsError) throw err;
    throw settingsSyntaxError(path, err);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new SettingsError(`Invalid settings file ${path}: the top level must be a JSON object`, path);
  }
  return raw as Record<string, unknown>;
}

function validateLayer(layer: Record<string, unknown>, path: string, env: NodeJS.ProcessEnv): Settings {
  const parsed = SettingsSchema.safeParse(expandDeep(layer, env));
  if (!parsed.success) {
    // Every mistake at once: fixing one per run is a slow way to learn a file is wrong in three places.
    const issues = parsed.error.issues.map((i) => ({ key: i.path.map(String).join('.'), message: i.message }));
    const first = issues[0]!;
    const text =
      issues.length === 1
        ? `Invalid settings in ${path}: "${first.key}": ${first.message}`
        : `Invalid settings in ${path} (${issues.length} problems):\n${issues.map((i) => `  "${i.key}": ${i.message}`).join('\n')}`;
    throw new SettingsError(text, path, first.key);
  }
  return parsed.data;
}

/** Reads, expands and validates one settings file. */
export function readSettingsFile(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  warnings: string[] = [],
): Settings {
  return validateLayer(applyV1Renames(parseFile(path), path, warnings), path, env);
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

// A hook one settings file switches off stays off whichever file sets the list, as in Gemini CLI.
const UNION_ARRAYS = new Set([
  'context.includeDirectories',
  'hooksConfig.disabled',
  'hooks.disabled',
  'policyPaths',
  'adminPolicyPaths',
  'skills.disabled',
]);

/** Objects merge deeply, scalars and arrays are replaced; `mcpServers` entries replace whole per alias. */
export function mergeLayer(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
  prefix = '',
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  // Keys are the files' own (a server may be named `__proto__` or `constructor`): read and set as own
  // properties only, never through the prototype.
  const set = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const [key, value] of Object.entries(over)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    if (path === 'mcpServers' && isPlainObject(prev) && isPlainObject(value)) {
      set(key, { ...prev, ...value });
    } else if (UNION_ARRAYS.has(path) && Array.isArray(prev) && Array.isArray(value)) {
      set(key, [...new Set([...prev, ...value])]);
    } else if (isPlainObject(prev) && isPlainObject(value)) {
      set(key, mergeLayer(prev, value, path));
    } else {
      set(key, value);
    }
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
