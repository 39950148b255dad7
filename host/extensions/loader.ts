import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readEnvFile } from '../config/env-file.js';
import { expandDeep } from '../config/expand.js';
import { SECRET_ENV_NAME } from '../../protocol/secret-names.js';
import { geminiHome } from '../config/paths.js';
import type { McpServerSettings } from '../config/settings-schema.js';
import { Enablement } from './enablement.js';
import { contextFilePaths, type Manifest, readManifest } from './manifest.js';
import { extensionsDir, INSTALL_METADATA_FILE, SETTINGS_ENV_FILE } from './paths.js';
import { readConfigFile } from '../config/config-file.js';
import { leadsOutside } from '../config/inside-folder.js';

/**
 * The extension loader: every folder of `~/.gemini/extensions` with a valid `gemini-extension.json`.
 *
 * API for the other parts of the host (hooks and policies are wired to it at merge time):
 *   loadExtensions({ cwd, env, homeDir, only }) → { extensions: LoadedExtension[], errors: string[] }
 * Each LoadedExtension has its `name`, absolute `path` (a linked extension's source folder), the
 * substituted `manifest`, and `enabled` for this folder (extension-enablement.json, or `-e` for one run).
 * Disabled extensions are listed too (for `extensions list` and /extensions); only enabled ones
 * contribute servers, context, excluded tools, commands and skills. An extension's `hooks/hooks.json`
 * and `policies/` live under `path`; `settingsEnv` holds the values of its settings (its `.env`), which
 * Gemini CLI also gives to the extension's hooks.
 */

/** `.gemini-extension-install.json`, Gemini CLI's install metadata. */
export interface InstallMetadata {
  source: string;
  type: 'local' | 'git' | 'link' | 'github-release';
  ref?: string;
  autoUpdate?: boolean;
  allowPreRelease?: boolean;
  releaseTag?: string;
}

export interface LoadedExtension {
  name: string;
  version: string;
  /** Absolute folder of the extension's files (for a link: the linked source). */
  path: string;
  /** The folder under ~/.gemini/extensions that holds it. */
  installDir: string;
  manifest: Manifest;
  enabled: boolean;
  installMetadata?: InstallMetadata;
  /** Existing context files (absolute). */
  contextFiles: string[];
  /** The manifest's servers, `trust` removed, variables and the extension's settings substituted. */
  mcpServers: Record<string, McpServerSettings>;
  excludeTools: string[];
  /** The extension's settings from its `.env` (asked at install). */
  settingsEnv: Record<string, string>;
}

export interface LoadExtensionsOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  /** `-e/--extensions a,b` (or `none`) for this run. */
  only?: string[];
}

export interface ExtensionSet {
  extensions: LoadedExtension[];
  /** Folders skipped, each with the reason. */
  errors: string[];
}

export function readInstallMetadata(dir: string): InstallMetadata | undefined {
  try {
    const raw = JSON.parse(readConfigFile(join(dir, INSTALL_METADATA_FILE)) ?? 'null') as InstallMetadata;
    return raw && typeof raw.source === 'string' ? raw : undefined;
  } catch {
    return undefined;
  }
}

export function loadExtensions(opts: LoadExtensionsOptions): ExtensionSet {
  const env = opts.env ?? process.env;
  const root = extensionsDir(env, opts.homeDir);
  const enablement = new Enablement(root, opts.only);
  const out: ExtensionSet = { extensions: [], errors: [] };
  let names: string[];
  try {
    names = readdirSync(root).sort();
  } catch {
    return out;
  }
  const seen = new Set<string>();
  for (const entry of names) {
    // Hidden folders are installs in progress (staged before they are renamed into place).
    if (entry.startsWith('.')) continue;
    const installDir = join(root, entry);
    if (!isDir(installDir)) continue;
    try {
      const ext = loadOne(installDir, resolve(opts.cwd), env, enablement, out.errors);
      if (seen.has(ext.name)) throw new Error(`Extension with name ${ext.name} already was loaded.`);
      seen.add(ext.name);
      out.extensions.push(ext);
    } catch (err) {
      out.errors.push(`Skipping extension in ${installDir}: ${(err as Error).message}`);
    }
  }
  if (enablement.refused) out.errors.push(`${enablement.refused}; every extension stays disabled until it is fixed`);
  if (opts.only?.length && !(opts.only.length === 1 && opts.only[0]!.toLowerCase() === 'none')) {
    for (const n of opts.only)
      if (!out.extensions.some((e) => e.name.toLowerCase() === n.toLowerCase()))
        out.errors.push(`Extension not found: ${n}`);
  }
  return out;
}

/** The environment for expanding an extension's arguments: the host's secret-named variables left out. */
function withoutHostSecrets(env: NodeJS.ProcessEnv, own: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!SECRET_ENV_NAME.test(k)) out[k] = v;
  return { ...out, ...own };
}

function loadOne(
  installDir: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  enablement: Enablement,
  errors: string[],
): LoadedExtension {
  const installMetadata = readInstallMetadata(installDir);
  const path = installMetadata?.type === 'link' ? resolve(installMetadata.source) : installDir;
  const manifest = readManifest(path, cwd);
  const settingsEnv = readEnvFile(join(installDir, SETTINGS_ENV_FILE));
  // The extension's own settings count before the environment, as in Gemini CLI.
  const expandEnv = { ...env, ...settingsEnv };
  const mcpServers: Record<string, McpServerSettings> = {};
  // The command line of a process is visible to every local user (`ps`): a third party's manifest may
  // not have the host's own credentials written into its servers' arguments. Its own settings (asked at
  // install) and harmless variables still expand there; the environment block is private to the user.
  const argEnv = withoutHostSecrets(env, settingsEnv);
  for (const [name, server] of Object.entries(manifest.mcpServers ?? {})) {
    // A manifest cannot make its own server trusted: `trust` is dropped.
    const { args, ...others } = server;
    const { trust: _trust, ...rest } = {
      ...(expandDeep(others, expandEnv) as McpServerSettings),
      ...(args ? { args: expandDeep(args, argEnv) as string[] } : {}),
    };
    // The extension's settings reach its servers as environment variables.
    if (rest.command && Object.keys(settingsEnv).length) rest.env = { ...settingsEnv, ...rest.env };
    mcpServers[name] = rest;
  }
  return {
    name: manifest.name,
    version: manifest.version,
    path,
    installDir,
    manifest,
    enabled: enablement.isEnabled(manifest.name, cwd),
    installMetadata,
    contextFiles: ownContextFiles(path, manifest, errors),
    mcpServers,
    excludeTools: manifest.excludeTools ?? [],
    settingsEnv,
  };
}

/**
 * The extension's existing context files whose real path stays inside it: a GEMINI.md linked to
 * `~/.ssh/id_rsa` (or found through a linked folder) would be sent to the model. Those are named in a notice.
 */
function ownContextFiles(path: string, manifest: Manifest, errors: string[]): string[] {
  return contextFilePaths(path, manifest).filter((p) => {
    if (!existsSync(p)) return false;
    const outside = leadsOutside(path, p);
    if (outside)
      errors.push(
        `Ignored context file ${p} of extension "${manifest.name}": it leads outside the extension, to ${outside}`,
      );
    return !outside;
  });
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The user scope's folder for enable/disable: the home directory (GEMINI_CLI_HOME when set). */
export function userScopeFolder(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return geminiHome(env, homeDir);
}
