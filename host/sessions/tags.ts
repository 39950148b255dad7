import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import type { Content } from '@google/genai';

/**
 * Named snapshots of a conversation (`/chat save TAG`), one JSON file each in the project temp dir,
 * named as Gemini CLI names them (`checkpoint-<tag>.json`).
 */
export interface SavedChat {
  tag: string;
  savedAt: string;
  sessionId?: string;
  history: Content[];
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

export function loadChat(dir: string, tag: string): SavedChat {
  const file = fileFor(dir, tag);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new Error(`No saved chat "${tag.trim()}" (see /chat list).`);
  }
  const saved = JSON.parse(text) as SavedChat;
  if (!Array.isArray(saved.history)) throw new Error(`Saved chat "${tag.trim()}" is damaged: it has no history.`);
  return saved;
}

export function deleteChat(dir: string, tag: string): void {
  try {
    unlinkSync(fileFor(dir, tag));
  } catch {
    throw new Error(`No saved chat "${tag.trim()}" (see /chat list).`);
  }
}

export function listChats(dir: string): { tag: string; savedAt: Date }[] {
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
      return { tag, savedAt: statSync(join(dir, n)).mtime };
    })
    .filter((t): t is { tag: string; savedAt: Date } => !!t)
    .sort((a, b) => a.savedAt.getTime() - b.savedAt.getTime());
}
