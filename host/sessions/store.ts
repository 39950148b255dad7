import { readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { FatalInputError } from '../errors.js';
import { safeText } from '../safe-text.js';
import type { Content } from '@google/genai';
import { chatsDir } from './recorder.js';
import {
  foldRecords,
  messageCount,
  parseRecords,
  repairHistory,
  SESSION_FILE_PREFIX,
  SESSION_FILE_SUFFIX,
  type SessionHeader,
  titleOf,
} from './records.js';

export interface SessionInfo {
  /** 1-based position in the list (oldest activity first, so the newest is last and `latest`). */
  index: number;
  id: string;
  file: string;
  title: string;
  startTime: string;
  /** Last write to the file. */
  updated: Date;
  messages: number;
  kind: SessionHeader['kind'];
  /** Records skipped because of their shape, each named by line ("line 3 (...)"); the rest is usable. */
  skipped: string[];
}

export interface LoadedSession extends SessionInfo {
  header: SessionHeader;
  /** Ready to send: unanswered calls of a killed run are answered with an error. */
  history: Content[];
  /** What the chat showed: like `history`, but from before any compression. */
  transcript: Content[];
}

/** A `--resume` / `--delete-session` reference that matches nothing: bad input (exit 42). */
export class SessionNotFoundError extends FatalInputError {
  constructor(message: string) {
    super(message);
    this.name = 'SessionNotFoundError';
  }
}

export interface ReadSession {
  header: SessionHeader;
  history: Content[];
  /** What the screen showed (compression left out): a resumed chat looks as it did. */
  transcript: Content[];
  title: string;
  skipped: string[];
}

function readSession(file: string, onUnusable?: (message: string) => void): ReadSession | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const { records, skipped } = parseRecords(text);
  const { header, history, firstContents, transcript, firstTyped } = foldRecords(records);
  if (!header) {
    if (skipped.length) onUnusable?.(`${file}: no usable session header, skipped (${skipped.join('; ')})`);
    return undefined;
  }
  const title = firstTyped?.trim()
    ? firstTyped.trim().split('\n')[0]!.trimEnd()
    : titleOf(firstContents.length ? firstContents : history);
  return { header, history, transcript, title, skipped };
}

/** The warning for a session some of whose records were skipped. */
export function skippedRecordsNotice(s: Pick<SessionInfo, 'file' | 'skipped'>): string | undefined {
  if (!s.skipped.length) return undefined;
  const n = s.skipped.length;
  return `${s.file}: ${n} record${n === 1 ? '' : 's'} of the wrong shape skipped, the rest is usable: ${safeText(s.skipped.join('; '))}`;
}

/**
 * Every readable session of the project, oldest activity first. `onUnusable` hears of session files that
 * have no usable header at all (the ones with only some bad records are listed, with `skipped`).
 */
export function listSessions(
  projectTempDir: string,
  onUnusable?: (message: string) => void,
  parsed?: Map<string, ReadSession>,
): SessionInfo[] {
  const dir = chatsDir(projectTempDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(SESSION_FILE_PREFIX) && n.endsWith(SESSION_FILE_SUFFIX));
  } catch {
    return [];
  }
  const out: Omit<SessionInfo, 'index'>[] = [];
  for (const name of names) {
    const file = join(dir, name);
    const s = readSession(file, onUnusable);
    if (!s) continue;
    parsed?.set(file, s);
    let updated: Date;
    try {
      updated = statSync(file).mtime;
    } catch {
      continue;
    }
    out.push({
      id: s.header.id,
      file,
      title: s.title,
      startTime: s.header.startTime,
      updated,
      messages: messageCount(s.history),
      kind: s.header.kind,
      skipped: s.skipped,
    });
  }
  out.sort((a, b) => a.updated.getTime() - b.updated.getTime() || a.startTime.localeCompare(b.startTime));
  return out.map((s, i) => ({ ...s, index: i + 1 }));
}

/**
 * A session id, `latest`, a 1-based number from the list, or a unique prefix of an id. An exact id wins over
 * every other reading: a session whose id is `1` or `latest` (custom ids may be either) is that session, not
 * a list position, and `abc` beside `abcdef` is `abc`, not ambiguous.
 */
export function findSession(
  projectTempDir: string,
  ref: string,
  onUnusable?: (message: string) => void,
  parsed?: Map<string, ReadSession>,
): SessionInfo {
  const all = listSessions(projectTempDir, onUnusable, parsed);
  if (all.length === 0) throw new SessionNotFoundError('No saved sessions for this project yet.');
  const r = ref.trim();
  const exact = all.find((s) => s.id === r);
  if (exact) return exact;
  if (r === '' || r === 'latest') return all[all.length - 1]!;
  // The id is the user's text (a flag, an editor's request): shown with its control characters visible.
  const shown = safeText(r);
  if (/^\d+$/.test(r)) {
    const hit = all[Number(r) - 1];
    if (!hit)
      throw new SessionNotFoundError(
        `No session number ${shown}: this project has ${all.length} (see --list-sessions).`,
      );
    return hit;
  }
  const matches = all.filter((s) => s.id.startsWith(r));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1)
    throw new SessionNotFoundError(`Session id "${shown}" is ambiguous: ${matches.length} sessions start with it.`);
  throw new SessionNotFoundError(`No session "${shown}" in this project (see --list-sessions).`);
}

export function loadSession(projectTempDir: string, ref: string): LoadedSession {
  // Listing parsed every session already: the chosen one is not read and validated a second time
  // (half of resuming a 10,000-record session).
  const parsed = new Map<string, ReadSession>();
  const info = findSession(projectTempDir, ref, undefined, parsed);
  const s = parsed.get(info.file) ?? readSession(info.file);
  if (!s) throw new SessionNotFoundError(`Session ${info.id} can no longer be read.`);
  return { ...info, header: s.header, history: repairHistory(s.history), transcript: s.transcript, skipped: s.skipped };
}

export function deleteSession(projectTempDir: string, ref: string): SessionInfo {
  const info = findSession(projectTempDir, ref);
  unlinkSync(info.file);
  return info;
}

/** "just now", "5 minutes ago", "3 days ago". */
export function formatAge(from: Date, now = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  const units: [number, string][] = [
    [86400 * 365, 'year'],
    [86400 * 30, 'month'],
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(s / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** One numbered line per session: title, age, id. */
export function formatSessionList(sessions: SessionInfo[], now = new Date()): string {
  if (sessions.length === 0) return 'No saved sessions for this project yet.\n';
  const lines = [`Sessions for this project (${sessions.length}):`];
  for (const s of sessions)
    lines.push(`  ${s.index}. ${safeText(s.title)} (${formatAge(s.updated, now)}) [${safeText(s.id)}]`);
  return `${lines.join('\n')}\n`;
}
