import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Enablement } from './enablement.js';
import {
  type InstallMetadata,
  loadExtensions,
  type LoadedExtension,
  readInstallMetadata,
  userScopeFolder,
} from './loader.js';
import { type ExtensionSetting, type Manifest, readManifest } from './manifest.js';
import { extensionsDir, INSTALL_METADATA_FILE, SETTINGS_ENV_FILE } from './paths.js';
import { writeFileAtomic } from '../atomic-file.js';
import { refuseLinksLeaving } from './foreign-links.js';
import { formatEnv } from './settings-env.js';
import { safeBlock } from '../safe-text.js';
import { fetchInto, metadataFor } from './install-source.js';

/**
 * Installing, updating, linking and removing extensions, in Gemini CLI's folders and files. Every
 * install is staged in a hidden folder beside its destination and renamed into place only once the
 * source was fetched, its manifest validated, consent given and its settings written: a bad name, an
 * invalid manifest, a failed clone or a refusal leaves nothing behind.
 */

export interface InstallIo {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  /** Shows the text and asks yes/no. */
  confirm(text: string): Promise<boolean>;
  /** Asks for one setting's value (sensitive ones without echo); undefined leaves it unset. */
  askSetting(setting: ExtensionSetting): Promise<string | undefined>;
  log(text: string): void;
}

export interface InstallRequest {
  source: string;
  ref?: string;
  autoUpdate?: boolean;
  /** `--consent`: the user already agreed. */
  consent?: boolean;
  /** An update: the consent text of the installed version, which the user agreed to. */
  consentedTo?: string;
  link?: boolean;
}

/** The environment variables a server's command line or environment names (`$X`, `${X}`). */
function variablesNamed(server: object): string[] {
  const found = new Set<string>();
  for (const m of JSON.stringify(server).matchAll(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
  ))
    found.add(m[1] ?? m[2]!);
  return [...found];
}

/**
 * What the extension will run and add, shown before the user agrees (Gemini CLI's consent text), with
 * paths where the files will live (`shownDir`, the final folder, never the staging one) and the names of
 * the environment variables each server reads (names only, never values).
 */
export function consentText(manifest: Manifest, dir: string, meta: InstallMetadata, shownDir = dir): string {
  const shown = (p: string) => join(shownDir, p);
  const lines = [`${meta.type === 'link' ? 'Linking' : 'Installing'} extension "${manifest.name}".`];
  lines.push(
    'The extension you are about to install may have been created by a third-party developer and sourced from a public repository. Nobody vets, endorses, or guarantees the functionality or security of extensions. Please carefully inspect any extension and its source code before installing to understand the permissions it requires and the actions it may perform.',
  );
  const servers = Object.entries(manifest.mcpServers ?? {});
  if (servers.length) {
    lines.push('This extension will run the following MCP servers:');
    for (const [name, s] of servers) {
      const what = s.httpUrl ?? s.url ?? [s.command, ...(s.args ?? [])].filter(Boolean).join(' ');
      const vars = variablesNamed(s);
      const reads = vars.length ? ` (reads ${vars.map((v) => `$${v}`).join(', ')} from your environment)` : '';
      lines.push(`  * ${name} (${s.httpUrl || s.url ? 'remote' : 'local'}): ${what}${reads}`);
    }
  }
  if (existsSync(join(dir, 'hooks', 'hooks.json')))
    lines.push(
      `⚠️  This extension contains Hooks which can automatically execute commands (${shown('hooks/hooks.json')}).`,
    );
  const ctx = manifest.contextFileName;
  if (ctx) lines.push(`This extension will append info to your gemini.md context using ${[ctx].flat().join(', ')}`);
  if (manifest.excludeTools?.length)
    lines.push(`This extension will exclude the following core tools: ${manifest.excludeTools.join(', ')}`);
  if (existsSync(join(dir, 'commands'))) lines.push(`This extension adds custom commands from ${shown('commands')}`);
  if (existsSync(join(dir, 'skills'))) lines.push(`This extension adds agent skills from ${shown('skills')}`);
  // `${extensionPath}` was substituted with the folder the files are in now: shown where they will live.
  const text = dir === shownDir ? lines.join('\n') : lines.join('\n').replaceAll(dir, shownDir);
  // Names, commands and paths come from a third party's manifest: shown, never interpreted by the terminal.
  return safeBlock(text);
}

async function askSettings(
  manifest: Manifest,
  io: InstallIo,
  previous: Record<string, string>,
): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const s of manifest.settings ?? []) {
    if (previous[s.envVar] !== undefined) {
      values[s.envVar] = previous[s.envVar]!;
      continue;
    }
    const v = await io.askSetting(s);
    if (v !== undefined && v !== '') values[s.envVar] = v;
  }
  return values;
}

/** Installs (or links) an extension; returns it as loaded from its new place. */
export async function installExtension(
  req: InstallRequest,
  io: InstallIo,
  previousEnv: Record<string, string> = {},
  replacing?: string,
): Promise<LoadedExtension> {
  const env = io.env ?? process.env;
  const root = extensionsDir(env, io.homeDir);
  mkdirSync(root, { recursive: true });
  const meta = metadataFor(req, io.cwd);
  const staging = mkdtempSync(join(root, '.installing-'));
  rmSync(staging, { recursive: true });
  try {
    fetchInto(meta, staging);
    if (meta.type !== 'link') refuseLinksLeaving(staging);
    const filesDir = meta.type === 'link' ? meta.source : staging;
    const manifest = readManifest(filesDir, io.cwd);
    const dest = join(root, manifest.name);
    if (replacing !== undefined && replacing !== manifest.name)
      throw new Error(
        `Update of "${replacing}" refused: its source now names the extension "${manifest.name}". ` +
          `Uninstall "${replacing}" and install the new one if you want it.`,
      );
    if (replacing === undefined) {
      const installed = loadExtensions({ cwd: io.cwd, env, homeDir: io.homeDir }).extensions;
      if (installed.some((e) => e.name === manifest.name))
        throw new Error(`Extension "${manifest.name}" is already installed. Please uninstall it first.`);
      if (existsSync(dest))
        throw new Error(
          `Cannot install extension "${manifest.name}" because a directory with that name already exists. Please remove it manually.`,
        );
    }
    const text = consentText(manifest, filesDir, meta, meta.type === 'link' ? filesDir : dest);
    // An update asks again only when what it will run or add differs from what the user agreed to.
    const agreed = req.consent || (req.consentedTo !== undefined && req.consentedTo === text);
    if (!agreed && !(await io.confirm(`${text}\n`)))
      throw new Error(
        req.consentedTo === undefined
          ? 'Installation cancelled: consent was not given.'
          : `Update of "${manifest.name}" cancelled: it changes what the extension runs or adds, and consent was not given.`,
      );
    const settings = await askSettings(manifest, io, previousEnv);
    // Written by renaming a fresh file over whatever the extension shipped under these names: a shipped
    // link is replaced, never written through (nor its target chmodded).
    if (Object.keys(settings).length)
      writeFileAtomic(join(staging, SETTINGS_ENV_FILE), formatEnv(settings), { mode: 0o600 });
    writeFileAtomic(join(staging, INSTALL_METADATA_FILE), JSON.stringify(meta, null, 2), { mode: 0o644 });
    if (replacing === manifest.name) {
      const old = `${dest}.old-${process.pid}`;
      renameSync(dest, old);
      try {
        renameSync(staging, dest);
      } catch (err) {
        renameSync(old, dest);
        throw err;
      }
      rmSync(old, { recursive: true, force: true });
    } else {
      renameSync(staging, dest);
      // Gemini CLI enables a new extension for the user scope (the home folder and below).
      new Enablement(root).set(manifest.name, userScopeFolder(env, io.homeDir), true);
    }
    const loaded = loadExtensions({ cwd: io.cwd, env, homeDir: io.homeDir }).extensions.find(
      (e) => e.name === manifest.name,
    );
    if (!loaded) throw new Error(`Extension "${manifest.name}" was installed but does not load.`);
    return loaded;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

export function findInstalled(name: string, io: Pick<InstallIo, 'cwd' | 'env' | 'homeDir'>): LoadedExtension {
  const all = loadExtensions({ cwd: io.cwd, env: io.env, homeDir: io.homeDir }).extensions;
  const lower = name.toLowerCase();
  const ext = all.find((e) => e.name.toLowerCase() === lower || e.installMetadata?.source.toLowerCase() === lower);
  if (!ext) throw new Error(`Extension "${name}" not found.`);
  return ext;
}

export function uninstallExtension(name: string, io: Pick<InstallIo, 'cwd' | 'env' | 'homeDir'>): string {
  const ext = findInstalled(name, io);
  rmSync(ext.installDir, { recursive: true, force: true });
  new Enablement(extensionsDir(io.env ?? process.env, io.homeDir)).remove(ext.name);
  return ext.name;
}

/** Re-fetches from the recorded source; settings already given are kept. */
export async function updateExtension(
  name: string,
  io: InstallIo,
  consent?: boolean,
): Promise<{ name: string; from: string; to: string }> {
  const ext = findInstalled(name, io);
  const meta = ext.installMetadata ?? readInstallMetadata(ext.installDir);
  if (!meta)
    throw new Error(`Extension "${ext.name}" has no install metadata (${INSTALL_METADATA_FILE}); reinstall it.`);
  if (meta.type === 'link') return { name: ext.name, from: ext.version, to: ext.version };
  const consentedTo = consentText(ext.manifest, ext.path, meta, ext.path);
  const updated = await installExtension(
    { source: meta.source, ref: meta.ref, autoUpdate: meta.autoUpdate, consent, consentedTo },
    io,
    ext.settingsEnv,
    ext.name,
  );
  return { name: ext.name, from: ext.version, to: updated.version };
}

/** `extensions validate <path>`: the manifest and every command file; returns the problems. */
export function validateExtension(dir: string, cwd: string): string[] {
  const problems: string[] = [];
  try {
    readManifest(resolve(cwd, dir), cwd);
  } catch (err) {
    problems.push((err as Error).message);
  }
  return problems;
}

export function enableExtension(
  name: string,
  enabled: boolean,
  scope: 'user' | 'workspace',
  io: Pick<InstallIo, 'cwd' | 'env' | 'homeDir'>,
): string {
  const ext = findInstalled(name, io);
  const env = io.env ?? process.env;
  const folder = scope === 'workspace' ? resolve(io.cwd) : userScopeFolder(env, io.homeDir);
  new Enablement(extensionsDir(env, io.homeDir)).set(ext.name, folder, enabled);
  return ext.name;
}
