import { editJsoncFile } from './jsonc-edit.js';
import { readJsoncObject } from './jsonc-file.js';
import { canonical, readTrustRules, type TrustLevel, trustedFoldersPath } from './trust.js';

// Writing trustedFolders.json, apart from trust.ts: deciding, which every start does, only reads it.

/**
 * Saves the user's answer for `dir` (TRUST_PARENT is stored under `dir` itself, as Gemini CLI does) and
 * keeps the rest of the file — other rules, comments — as it was.
 */
export function saveTrust(
  dir: string,
  level: TrustLevel,
  env: NodeJS.ProcessEnv = process.env,
  homeDir?: string,
): string {
  const file = trustedFoldersPath(env, homeDir);
  readTrustRules(file);
  editJsoncFile(file, [{ path: [canonical(dir)], value: level }]);
  return file;
}

/** Forgets the rule saved for exactly `dir` (a covering parent rule still applies). */
export function forgetTrust(dir: string, env: NodeJS.ProcessEnv = process.env, homeDir?: string): boolean {
  const file = trustedFoldersPath(env, homeDir);
  const { value } = readJsoncObject(file);
  const key = Object.keys(value).find((k) => canonical(k) === canonical(dir));
  if (key === undefined) return false;
  editJsoncFile(file, [{ path: [key], value: undefined }]);
  return true;
}
