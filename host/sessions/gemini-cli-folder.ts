import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { readConfigFile } from '../config/config-file.js';

/**
 * Where Gemini CLI 0.61 keeps a project's files, and reading them. It names the project's folder under
 * `~/.gemini/tmp` with a short slug that `~/.gemini/projects.json` maps the project's root to (and confirms
 * with a `.project_root` file inside it), where ours is named by the sha256 of the root. In it: `chats/`
 * (its sessions: gemini-cli-sessions.ts), `checkpoint-<tag>.json` (its saved chats: tags.ts) and
 * `logs.json` (what was typed, for its Up key). All are only read here.
 */

/** A long session with large tool outputs runs to tens of megabytes; far beyond that is not read. */
export const GEMINI_CLI_SESSION_MAX_BYTES = 256 * 1024 * 1024;

/** A JSON object (not an array), as Gemini CLI's files hold them. */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Another program's file, read as configuration is (host/config/config-file.ts: a regular file, never
 * blocking on a FIFO, size-capped); undefined when missing, refused or unreadable.
 */
export function readGeminiCliText(file: string, maxBytes?: number): string | undefined {
  try {
    return readConfigFile(file, maxBytes);
  } catch {
    return undefined;
  }
}

/**
 * The project's root and chats folder in Gemini CLI 0.61's layout, for our project temp dir
 * `~/.gemini/tmp/<sha256 of the root>`.
 */
function geminiCliChatsDir(projectTempDir: string): { root: string; dir: string } | undefined {
  const tmp = dirname(projectTempDir);
  if (basename(tmp) !== 'tmp') return undefined;
  let projects: unknown;
  try {
    projects = JSON.parse(readGeminiCliText(join(dirname(tmp), 'projects.json')) ?? 'null')?.projects;
  } catch {
    return undefined;
  }
  if (!isObject(projects)) return undefined;
  const hash = basename(projectTempDir);
  for (const [root, slug] of Object.entries(projects)) {
    if (typeof slug !== 'string' || !/^[^/\\]+$/.test(slug) || slug === '.' || slug === '..') continue;
    if (createHash('sha256').update(root).digest('hex') !== hash) continue;
    return ownedBy(join(tmp, slug), root) ? { root, dir: join(tmp, slug, 'chats') } : undefined;
  }
  return undefined;
}

/** Gemini CLI's ownership marker: a slug folder whose `.project_root` names another root is not this project's. */
function ownedBy(dir: string, root: string): boolean {
  try {
    const owner = readConfigFile(join(dir, '.project_root'));
    return owner === undefined || owner.trim() === root;
  } catch {
    return false;
  }
}

/** Gemini CLI 0.61's folder for the project, where its saved chats (`/chat save`) are; undefined without one. */
export function geminiCliProjectDir(projectTempDir: string): string | undefined {
  const at = geminiCliChatsDir(projectTempDir);
  return at && dirname(at.dir);
}

/**
 * What the user typed into Gemini CLI in this project, oldest first: its input history (`logs.json` in its
 * folder for the project, the prompts its Up key walks), for a chat here that has none of its own yet.
 */
export function geminiCliPrompts(projectTempDir: string): string[] {
  const dir = geminiCliProjectDir(projectTempDir);
  let logs: unknown;
  try {
    logs = dir && JSON.parse(readGeminiCliText(join(dir, 'logs.json')) ?? 'null');
  } catch {
    return [];
  }
  if (!Array.isArray(logs)) return [];
  const prompts = logs.filter(
    (e): e is { message: string; timestamp?: unknown } =>
      isObject(e) && e.type === 'user' && typeof e.message === 'string' && e.message.trim() !== '',
  );
  const when = (e: { timestamp?: unknown }) => (typeof e.timestamp === 'string' ? Date.parse(e.timestamp) || 0 : 0);
  return prompts.sort((a, b) => when(a) - when(b)).map((e) => e.message);
}

/** The project's root and Gemini CLI session files (none when the project has no Gemini CLI folder). */
export function geminiCliSessionFiles(projectTempDir: string): { root: string; files: string[] } {
  const at = geminiCliChatsDir(projectTempDir);
  if (!at) return { root: '', files: [] };
  try {
    const files = readdirSync(at.dir)
      .filter((n) => n.startsWith('session-') && n.endsWith('.jsonl'))
      .map((n) => join(at.dir, n));
    return { root: at.root, files };
  } catch {
    return { root: at.root, files: [] };
  }
}
