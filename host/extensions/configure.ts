import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import { readEnvFile } from '../config/env-file.js';
import type { LoadedExtension } from './loader.js';
import { loadExtensions } from './loader.js';
import type { ExtensionSetting } from './manifest.js';
import { SETTINGS_ENV_FILE } from './paths.js';
import { safeBlock } from '../safe-text.js';
import { findInstalled, type InstallIo } from './install.js';
import { formatEnv } from './settings-env.js';

/**
 * `extensions config [name] [setting]`, Gemini CLI 0.61's: asks an extension's settings again (one, all of
 * one extension's, or every extension's) and keeps them in the extension's `.env`, where install put them.
 * A value already set is only replaced after a yes; an empty answer keeps it.
 */
export interface ConfigureIo extends Pick<InstallIo, 'cwd' | 'env' | 'homeDir' | 'log' | 'askSetting'> {
  /** A yes/no question whose default is no. */
  confirm(question: string): Promise<boolean>;
}

function save(ext: LoadedExtension, envVar: string, value: string): void {
  const file = join(ext.installDir, SETTINGS_ENV_FILE);
  const values = { ...readEnvFile(file), [envVar]: value };
  // The file holds secrets: owner-only, replaced in one step.
  writeFileAtomic(file, formatEnv(values), { mode: 0o600 });
}

async function ask(ext: LoadedExtension, s: ExtensionSetting, io: ConfigureIo): Promise<void> {
  const v = await io.askSetting(s);
  if (v !== undefined && v !== '') save(ext, s.envVar, v);
}

/** One setting, named by its name or its environment variable. */
export async function configureSetting(name: string, key: string, io: ConfigureIo): Promise<void> {
  const ext = findInstalled(name, io);
  const settings = ext.manifest.settings ?? [];
  if (!settings.length) throw new Error('This extension does not have any settings.');
  const s = settings.find((x) => x.name === key || x.envVar === key);
  if (!s) throw new Error(safeBlock(`Setting ${key} not found.`));
  await ask(ext, s, io);
  io.log(safeBlock(`Setting "${key}" updated.\n`));
}

async function configureAll(ext: LoadedExtension, io: ConfigureIo): Promise<void> {
  const current = readEnvFile(join(ext.installDir, SETTINGS_ENV_FILE));
  for (const s of ext.manifest.settings ?? []) {
    if (current[s.envVar] !== undefined) {
      const q = safeBlock(`Setting "${s.name}" (${s.envVar}) is already set. Overwrite?`);
      if (!(await io.confirm(q))) continue;
    }
    await ask(ext, s, io);
  }
}

/** Every setting of one extension, or (no name) of every installed extension that has settings. */
export async function configureExtensions(name: string | undefined, io: ConfigureIo): Promise<void> {
  if (name !== undefined) {
    const ext = findInstalled(name, io);
    if (!ext.manifest.settings?.length) {
      io.log(safeBlock(`Extension "${ext.name}" has no settings to configure.\n`));
      return;
    }
    io.log(safeBlock(`Configuring settings for "${ext.name}"...\n`));
    return configureAll(ext, io);
  }
  const all = loadExtensions({ cwd: io.cwd, env: io.env, homeDir: io.homeDir }).extensions;
  if (!all.length) {
    io.log('No extensions installed.\n');
    return;
  }
  for (const ext of all.filter((e) => e.manifest.settings?.length)) {
    io.log(safeBlock(`\nConfiguring settings for "${ext.name}"...\n`));
    await configureAll(ext, io);
  }
}
