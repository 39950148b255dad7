import { existsSync } from 'node:fs';
import { readConfigFile } from './config-file.js';
import { SettingsError } from './errors.js';
import { JsonSyntaxError, parseJsonc } from './json-location.js';
import { type LoadSettingsOptions, settingsFiles } from './settings-files.js';

/** A settings file that does not parse: the file, line and column, and what is wrong there. */
export function settingsSyntaxError(path: string, err: unknown): SettingsError {
  if (err instanceof JsonSyntaxError) {
    return new SettingsError(`Invalid settings file ${path}:${err.line}:${err.column}: ${err.reason}`, path);
  }
  return new SettingsError(`Invalid settings file ${path}: ${(err as Error).message}`, path);
}

/**
 * The settings files that do not parse as JSON, checked without loading the settings schema: cheap
 * enough to run before the chat screen opens. Whether a bad file is fatal is the loader's decision (an
 * untrusted workspace's file is skipped), so callers hand any finding to it.
 */
export function unparsableSettingsFiles(opts: LoadSettingsOptions): SettingsError[] {
  const bad: SettingsError[] = [];
  for (const ref of settingsFiles(opts)) {
    if (!existsSync(ref.path)) continue;
    try {
      const text = readConfigFile(ref.path) ?? '';
      if (text.trim() !== '') parseJsonc(text);
    } catch (err) {
      bad.push(err instanceof SettingsError ? err : settingsSyntaxError(ref.path, err));
    }
  }
  return bad;
}
