import { applyServerOptions } from './config/server-options.js';
import { type LoadedSettingsFiles, type LoadSettingsOptions, loadSettingsFiles } from './config/settings.js';
import { type ExtensionSet, loadExtensions } from './extensions/loader.js';
import { mergeExtensions } from './extensions/settings-merge.js';

/**
 * Settings as the host uses them: the settings files (host/config) with what the enabled extensions add
 * (host/extensions). It sits above both folders so that reading settings files never depends on
 * extensions, while extensions use the settings' formats and paths.
 */
export interface LoadedSettings extends LoadedSettingsFiles {
  /** Installed extensions (enabled or not) and the folders that failed to load. */
  extensions: ExtensionSet;
  /** `mcpServers` names that come from an enabled extension → the extension's name. */
  extensionServers: Record<string, string>;
}

export function loadSettings(opts: LoadSettingsOptions): LoadedSettings {
  const files = loadSettingsFiles(opts);
  // The `.env` file of the folder applies to extensions' settings as it does to the files'.
  const extensions = loadExtensions({ cwd: opts.cwd, env: files.env, homeDir: opts.homeDir, only: opts.extensions });
  const merged = files.merged as Record<string, unknown>;
  const extensionServers = mergeExtensions(merged, extensions, files.warnings, files.notices);
  applyServerOptions(merged);
  return { ...files, extensions, extensionServers };
}
