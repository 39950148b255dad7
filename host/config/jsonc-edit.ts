import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { writeFileAtomic } from '../atomic-file.js';
import { parseJsoncObject, readJsoncObject } from './jsonc-file.js';
import { setMembersText } from './jsonc-members.js';

/**
 * Edits of JSON-with-comments files the user owns (settings, trusted folders) go through jsonc-parser so
 * comments, key order and indentation survive; a file we cannot read is never rewritten.
 */

export interface JsoncEdit {
  path: JSONPath;
  /** `undefined` removes the key. */
  value: unknown;
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
