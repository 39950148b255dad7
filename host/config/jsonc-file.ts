import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { readConfigFile } from './config-file.js';
import { setMembersText } from './jsonc-members.js';
import { SettingsError } from './errors.js';
import { parseJsonc } from './json-location.js';
import { settingsSyntaxError } from './settings-precheck.js';
import { writeFileAtomic } from '../atomic-file.js';

/**
 * JSON-with-comments files the user owns (settings, trusted folders). Edits go through jsonc-parser so
 * comments, key order and indentation survive; a file we cannot read is never rewritten.
 */

export interface JsoncEdit {
  path: JSONPath;
  /** `undefined` removes the key. */
  value: unknown;
}

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

/** Applies the edits to the text, keeping everything else (comments, order, layout) as it was. */
export function editJsoncText(text: string, edits: readonly JsoncEdit[]): string {
  let out = text.trim() ? text : '{}\n';
  const indent = /\n(\t| +)"/.exec(out)?.[1];
  const formattingOptions = {
    insertSpaces: indent !== '\t',
    tabSize: indent && indent !== '\t' ? indent.length : 2,
    eol: out.includes('\r\n') ? '\r\n' : '\n',
  };
  for (const e of edits) out = applyEdits(out, modify(out, e.path, e.value, { formattingOptions }));
  return out.endsWith('\n') ? out : `${out}\n`;
}

/**
 * Edits a file in place, atomically. A file that does not parse is left untouched (SettingsError), so a
 * hand-edited mistake is never replaced by our rewrite. Symlinked files (dotfile managers) are written
 * at their target.
 */
export function editJsoncFile(file: string, edits: readonly JsoncEdit[]): void {
  editJsonc(file, (text) => editJsoncText(text, edits));
}

/**
 * Sets (undefined: removes) many members of the object at `parent` in one pass, atomically; see
 * setMembersText. Like editJsoncFile, a file that does not parse is never rewritten.
 */
export function editJsoncMembers(file: string, parent: string[], members: ReadonlyMap<string, unknown>): void {
  editJsonc(file, (text) => {
    const next = setMembersText(text, parent, members);
    return next.endsWith('\n') ? next : `${next}\n`;
  });
}

/** Read (the symlink's target), change, check that the result still parses, write atomically. */
function editJsonc(file: string, change: (text: string) => string): void {
  const target = existsSync(file) && lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  const { text } = readJsoncObject(target);
  const next = change(text);
  parseJsoncObject(next, target);
  writeFileAtomic(target, next);
}
