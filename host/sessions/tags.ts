import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import type { Content } from '@google/genai';
import { GEMINI_CLI_SESSION_MAX_BYTES, geminiCliProjectDir, readGeminiCliText } from './gemini-cli-folder.js';
import { savedChatHistory } from './gemini-cli-sessions.js';

/**
 * Named snapshots of a conversation (`/chat save TAG`), one JSON file each in the project temp dir,
 * named as Gemini CLI names them (`checkpoint-<tag>.json`). Gemini CLI 0.61's own, in its folder for the
 * project (gemini-cli-folder.ts), are listed and resumed too, and only read: one of ours of the same
 * tag comes first.
 */
export interface SavedChat {
  tag: string;
  savedAt: string;
  sessionId?: string;
  history: Content[];
  /** Saved by Gemini CLI. */
  geminiCli?: true;
}

const PREFIX = 'checkpoint-';
const SUFFIX = '.json';

/** Tags become file names: anything outside a safe set is percent-encoded, so no tag can leave the directory. */
function fileFor(dir: string, tag: string): string {
  const clean = tag.trim();
  if (!clean) throw new Error('A tag is required, e.g. /chat save my-feature.');
  return join(dir, `${PREFIX}${encodeURIComponent(clean).replace(/\./g, '%2E')}${SUFFIX}`);
}

export function saveChat(dir: string, tag: string, history: Content[], sessionId?: string): string {
  const file = fileFor(dir, tag);
  const saved: SavedChat = { tag: tag.trim(), savedAt: new Date().toISOString(), sessionId, history };
  writeFileAtomic(file, `${JSON.stringify(saved)}\n`);
  return file;
}

const noSuchChat = (tag: string) => new Error(`No saved chat "${tag.trim()}" (see /chat list).`);

export function loadChat(dir: string, tag: string): SavedChat {
  const file = fileFor(dir, tag);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return loadGeminiCliChat(dir, tag);
  }
  const saved = JSON.parse(text) as SavedChat;
  if (!Array.isArray(saved.history)) throw new Error(`Saved chat "${tag.trim()}" is damaged: it has no history.`);
  return saved;
}

/** Gemini CLI's file for the tag (its name encodes the tag as ours does, but for dots), if it has the folder. */
function geminiCliFileFor(dir: string, tag: string): string | undefined {
  const theirs = geminiCliProjectDir(dir);
  return theirs && tag.trim() ? join(theirs, `${PREFIX}${encodeURIComponent(tag.trim())}${SUFFIX}`) : undefined;
}

/** Gemini CLI saves `{ history }` (0.61) or the bare history (earlier releases). */
function loadGeminiCliChat(dir: string, tag: string): SavedChat {
  const file = geminiCliFileFor(dir, tag);
  const text = file && readGeminiCliText(file, GEMINI_CLI_SESSION_MAX_BYTES);
  if (!file || text === undefined) throw noSuchChat(tag);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`Saved chat "${tag.trim()}" (Gemini CLI's) is damaged: ${file} is not JSON.`);
  }
  const history = Array.isArray(parsed) ? parsed : (parsed as { history?: unknown } | null)?.history;
  if (!Array.isArray(history)) throw new Error(`Saved chat "${tag.trim()}" is damaged: it has no history.`);
  const savedAt = statSync(file).mtime.toISOString();
  return { tag: tag.trim(), savedAt, history: savedChatHistory(history as Content[]), geminiCli: true };
}

export function deleteChat(dir: string, tag: string): void {
  try {
    unlinkSync(fileFor(dir, tag));
  } catch {
    const theirs = geminiCliFileFor(dir, tag);
    if (theirs && listedIn(theirs)) throw new Error(`"${tag.trim()}" was saved by Gemini CLI: delete it there.`);
    throw noSuchChat(tag);
  }
}

const listedIn = (file: string): boolean => listedAt(file) !== undefined;

/** When a saved chat was written; undefined for a name that is not a file (a dangling link, a folder). */
function listedAt(file: string): Date | undefined {
  try {
    const st = statSync(file);
    return st.isFile() ? st.mtime : undefined;
  } catch {
    return undefined;
  }
}

/** Saved chats, oldest first: ours, then those of Gemini CLI whose tag none of ours has. */
export function listChats(dir: string): { tag: string; savedAt: Date; geminiCli?: true }[] {
  const ours = tagsIn(dir);
  const theirDir = geminiCliProjectDir(dir);
  const taken = new Set(ours.map((t) => t.tag));
  const theirs = theirDir ? tagsIn(theirDir).filter((t) => !taken.has(t.tag)) : [];
  return [...ours, ...theirs.map((t) => ({ ...t, geminiCli: true as const }))].sort(
    (a, b) => a.savedAt.getTime() - b.savedAt.getTime(),
  );
}

function tagsIn(dir: string): { tag: string; savedAt: Date }[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(PREFIX) && n.endsWith(SUFFIX));
  } catch {
    return [];
  }
  return names
    .map((n) => {
      let tag: string;
      try {
        tag = decodeURIComponent(n.slice(PREFIX.length, -SUFFIX.length));
      } catch {
        return undefined;
      }
      const savedAt = listedAt(join(dir, n));
      return savedAt && { tag, savedAt };
    })
    .filter((t): t is { tag: string; savedAt: Date } => !!t);
}
