import { readConfigFile } from './config-file.js';
import { SettingsError } from './errors.js';
import { parseJsonc } from './json-location.js';
import { settingsSyntaxError } from './settings-precheck.js';

/**
 * Reading JSON-with-comments files the user owns (settings, trusted folders). Editing them is
 * jsonc-edit.ts: jsonc-parser, which it uses, builds ~350 KB of indentation tables when it loads, and
 * a start only reads.
 */

/** Parses a settings-style file: comments allowed, the top level must be an object. */
export function parseJsoncObject(text: string, file: string): Record<string, unknown> {
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = parseJsonc(text);
  } catch (e) {
    throw settingsSyntaxError(file, e);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new SettingsError(`Invalid file ${file}: the top level must be a JSON object`, file);
  }
  return value as Record<string, unknown>;
}

/** The file's text and value; a missing file reads as an empty object. */
export function readJsoncObject(file: string): { text: string; value: Record<string, unknown> } {
  const text = readConfigFile(file);
  if (text === undefined) return { text: '', value: {} };
  return { text, value: parseJsoncObject(text, file) };
}
