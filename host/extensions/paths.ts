import { join } from 'node:path';
import { geminiHome } from '../config/paths.js';

/** Gemini CLI's extension file names: both programs read and write the same folders. */
export const MANIFEST_FILE = 'gemini-extension.json';
export const INSTALL_METADATA_FILE = '.gemini-extension-install.json';
export const ENABLEMENT_FILE = 'extension-enablement.json';
export const SETTINGS_ENV_FILE = '.env';

/** Extension names are single folder names: letters, digits and dashes only (Gemini CLI's rule). */
export const EXTENSION_NAME = /^[A-Za-z0-9-]+$/;

/** `~/.gemini/extensions` (GEMINI_CLI_HOME moves the home, as for settings). */
export function extensionsDir(env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  return join(geminiHome(env, homeDir), '.gemini', 'extensions');
}
