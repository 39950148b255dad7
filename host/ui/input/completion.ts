import { readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

export interface Completion {
  /** Index in the text where the completed word starts. */
  from: number;
  /** Index in the text where it ends (the cursor). */
  to: number;
  candidates: string[];
}

/** Longest common prefix of the candidates (what Tab inserts when several match). */
export function commonPrefix(words: string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0];
  for (const w of words.slice(1)) {
    let i = 0;
    while (i < prefix.length && i < w.length && prefix[i] === w[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix;
}

/** Slash-command completion: `/me` → `/memory`; `/memory s` → `/memory show`. */
export function completeSlash(
  text: string,
  cursor: number,
  commands: Record<string, string[]>,
): Completion | undefined {
  const before = text.slice(0, cursor);
  const m = /^\/(\S*)$/.exec(before);
  if (m) {
    const candidates = Object.keys(commands)
      .filter((c) => c.startsWith(m[1]))
      .sort()
      .map((c) => `/${c}`);
    return { from: 0, to: cursor, candidates };
  }
  const sub = /^\/(\S+)\s+(\S*)$/.exec(before);
  if (sub && commands[sub[1]]) {
    const candidates = commands[sub[1]].filter((c) => c.startsWith(sub[2]));
    return { from: cursor - sub[2].length, to: cursor, candidates };
  }
  return undefined;
}

/**
 * `@path` completion against the file system, relative to `cwd`. Directories get a trailing `/`;
 * dot-files only when the typed part starts with a dot. Returned candidates include the `@`.
 */
export function completeAtPath(text: string, cursor: number, cwd: string, limit = 50): Completion | undefined {
  const before = text.slice(0, cursor);
  const m = /(^|\s)@((?:\\ |[^\s(])*)$/.exec(before);
  if (!m) return undefined;
  const typed = m[2].replace(/\\ /g, ' ');
  const slash = typed.lastIndexOf('/');
  const dirPart = slash === -1 ? '' : typed.slice(0, slash + 1);
  const namePart = slash === -1 ? typed : typed.slice(slash + 1);
  const dir = isAbsolute(dirPart) ? dirPart : resolve(cwd, dirPart || '.');
  let entries: { name: string; dir: boolean }[];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).map((e) => ({
      name: e.name,
      dir: e.isDirectory() || (e.isSymbolicLink() && isDirSafe(join(dir, e.name))),
    }));
  } catch {
    return { from: cursor - m[2].length - 1, to: cursor, candidates: [] };
  }
  const candidates = entries
    .filter((e) => e.name.startsWith(namePart) && (namePart.startsWith('.') || !e.name.startsWith('.')))
    .filter((e) => e.name !== 'node_modules' || namePart.startsWith('n'))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, limit)
    .map((e) => `@${(dirPart + e.name).replace(/ /g, '\\ ')}${e.dir ? '/' : ''}`);
  return { from: cursor - m[2].length - 1, to: cursor, candidates };
}

function isDirSafe(p: string): boolean {
  try {
    readdirSync(p);
    return true;
  } catch {
    return false;
  }
}

/** `@tool` name completion for passive calls: `@filesystem__li` → `@filesystem__list_directory(`. */
export function completeAtTool(text: string, cursor: number, toolNames: string[]): Completion | undefined {
  const before = text.slice(0, cursor);
  const m = /(^|\s)@([A-Za-z][A-Za-z0-9_-]*__[A-Za-z0-9_.-]*)$/.exec(before);
  if (!m) return undefined;
  const candidates = toolNames
    .filter((n) => n.startsWith(m[2]))
    .sort()
    .map((n) => `@${n}(`);
  return { from: cursor - m[2].length - 1, to: cursor, candidates };
}

/** `@server:uri` of a resource a server lists (the prompt inlines it). */
export function completeAtResource(text: string, cursor: number, refs: string[]): Completion | undefined {
  const m = /(^|\s)@([A-Za-z][A-Za-z0-9_-]*:\S*)$/.exec(text.slice(0, cursor));
  if (!m) return undefined;
  const candidates = refs
    .filter((r) => r.startsWith(m[2]!))
    .sort()
    .map((r) => `@${r}`);
  return candidates.length ? { from: cursor - m[2]!.length - 1, to: cursor, candidates } : undefined;
}

/** Applies a Tab press: a single candidate is inserted whole, several extend to their common prefix. */
export function applyCompletion(text: string, c: Completion): { text: string; cursor: number } | undefined {
  if (c.candidates.length === 0) return undefined;
  let insert = c.candidates.length === 1 ? c.candidates[0] : commonPrefix(c.candidates);
  if (insert.length <= c.to - c.from) return undefined;
  if (c.candidates.length === 1 && !insert.endsWith('/') && !insert.endsWith('(')) insert += ' ';
  return { text: text.slice(0, c.from) + insert + text.slice(c.to), cursor: c.from + insert.length };
}
