import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { FatalInputError } from '../errors.js';
import { safeText } from '../safe-text.js';
import type { Content } from '@google/genai';
import { chatsDir } from './recorder.js';
import { geminiCliSessionFiles } from './gemini-cli-folder.js';
import { geminiCliSessionTalked, readGeminiCliFile, readGeminiCliHeader } from './gemini-cli-sessions.js';
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
  /** Recorded by Gemini CLI (only read: a resume goes on in a new session of ours). */
  geminiCli?: true;
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

interface ReadSession {
  header: SessionHeader;
  geminiCli?: true;
  history: Content[];
  /** What the screen showed (compression left out): a resumed chat looks as it did. */
  transcript: Content[];
  title: string;
  skipped: string[];
}

/**
 * The session in `file`: one of ours, or with `geminiCliRoot` (the project's root) one of Gemini CLI's.
 * `onUnusable` hears of a file of ours without a usable header.
 */
function readSession(
  file: string,
  onUnusable?: (message: string) => void,
  geminiCliRoot?: string,
): ReadSession | undefined {
  if (geminiCliRoot !== undefined) return readGeminiCliSessionAsOurs(file, geminiCliRoot);
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

/** A Gemini CLI session as one of ours: a chat (it has no headless mark), titled by its first prompt. */
function readGeminiCliSessionAsOurs(file: string, cwd: string): ReadSession | undefined {
  const g = readGeminiCliFile(file);
  if (!g) return undefined;
  const header: SessionHeader = {
    type: 'session',
    version: 1,
    id: g.id,
    startTime: g.startTime,
    cwd,
    model: '',
    kind: 'chat',
  };
  return { header, geminiCli: true, history: g.history, transcript: g.history, title: titleOf(g.history), skipped: [] };
}

/** The session files of a project's chats folder (none when it does not exist). */
function sessionFiles(projectTempDir: string): string[] {
  const dir = chatsDir(projectTempDir);
  try {
    return readdirSync(dir)
      .filter((n) => n.startsWith(SESSION_FILE_PREFIX) && n.endsWith(SESSION_FILE_SUFFIX))
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

const lastWrite = (file: string): Date | undefined => statOf(file)?.mtime;

const statOf = (file: string): { mtime: Date; size: number } | undefined => {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
};

/** Oldest activity first, numbered from 1: the order of the list, which `latest` and numbers refer to. */
function inListOrder<T extends { updated: Date; startTime: string }>(items: T[]): (T & { index: number })[] {
  items.sort((a, b) => a.updated.getTime() - b.updated.getTime() || a.startTime.localeCompare(b.startTime));
  return items.map((s, i) => ({ ...s, index: i + 1 }));
}

/**
 * Every readable session of the project, oldest activity first. `onUnusable` hears of session files that
 * have no usable header at all (the ones with only some bad records are listed, with `skipped`).
 */
export function listSessions(projectTempDir: string, onUnusable?: (message: string) => void): SessionInfo[] {
  const ours: Omit<SessionInfo, 'index'>[] = [];
  const theirs: Omit<SessionInfo, 'index'>[] = [];
  for (const file of sessionFiles(projectTempDir)) {
    const s = readSession(file, onUnusable);
    const updated = s && lastWrite(file);
    if (s && updated) ours.push(infoOf(file, s, updated));
  }
  const geminiCli = geminiCliSessionFiles(projectTempDir);
  for (const file of geminiCli.files) {
    const s = readSession(file, undefined, geminiCli.root);
    const st = s && statOf(file);
    if (s && st && geminiCliSessionTalked(st.size, () => s.history)) theirs.push(infoOf(file, s, st.mtime));
  }
  return inListOrder(oneOfEach(ours, theirs));
}

/**
 * A session of ours and Gemini CLI's copy of it (gemini-cli-mirror.ts) share an id: ours stands for both,
 * unless Gemini CLI wrote to its copy after us (the conversation went on there), and then the copy does.
 * Both are written together, within milliseconds: a copy counts as newer a while after ours only.
 */
function oneOfEach<T extends { id: string; updated: Date }>(ours: T[], theirs: T[]): T[] {
  const CONTINUED_AFTER_MS = 2000;
  const byId = new Map(ours.map((s) => [s.id, s]));
  const out = [...ours];
  for (const t of theirs) {
    const mine = byId.get(t.id);
    if (!mine) out.push(t);
    else if (t.updated.getTime() > mine.updated.getTime() + CONTINUED_AFTER_MS) out.splice(out.indexOf(mine), 1, t);
  }
  return out;
}

/** What the list says of a session read whole, but its place in the list. */
function infoOf(file: string, s: ReadSession, updated: Date): Omit<SessionInfo, 'index'> {
  return {
    id: s.header.id,
    file,
    title: s.title,
    startTime: s.header.startTime,
    updated,
    messages: messageCount(s.history),
    kind: s.header.kind,
    skipped: s.skipped,
    ...(s.geminiCli ? { geminiCli: true as const } : {}),
  };
}

/** Where a session is in the list, without what only reading it whole tells (title, messages). */
interface SessionPlace {
  index: number;
  id: string;
  file: string;
  startTime: string;
  updated: Date;
  /** A Gemini CLI session's project root (see readSession). */
  geminiCliRoot?: string;
}

// A header line longer than this (a very long cwd) is found by reading the file whole.
const HEAD_BYTES = 64 * 1024;

/**
 * A session file's header when its first line is one, as the recorder writes it; otherwise (or when the
 * file cannot be read) what reading the whole file finds, since the header is its first session record.
 */
function headerOf(file: string): SessionHeader | undefined {
  let head: string | undefined;
  try {
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.allocUnsafe(HEAD_BYTES);
      const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
      const end = buf.subarray(0, n).indexOf(10);
      if (end >= 0) head = buf.toString('utf8', 0, end);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const first = head === undefined ? undefined : parseRecords(head).records[0];
  return first?.type === 'session' ? first : readSession(file)?.header;
}

/**
 * The list as finding a session needs it: each file's header and last write. Resuming one session used to
 * read every session of the project whole, so it cost as much as all of them together.
 */
function sessionPlaces(projectTempDir: string, oursOnly = false): SessionPlace[] {
  const out: Omit<SessionPlace, 'index'>[] = [];
  for (const file of sessionFiles(projectTempDir)) {
    const header = headerOf(file);
    const updated = header && lastWrite(file);
    if (header && updated) out.push({ id: header.id, file, startTime: header.startTime, updated });
  }
  const theirs: Omit<SessionPlace, 'index'>[] = [];
  if (oursOnly) return inListOrder(out);
  const geminiCli = geminiCliSessionFiles(projectTempDir);
  for (const file of geminiCli.files) {
    const header = readGeminiCliHeader(file);
    const st = header && statOf(file);
    if (header && st && geminiCliSessionTalked(st.size, () => readGeminiCliFile(file)?.history))
      theirs.push({ ...header, file, updated: st.mtime, geminiCliRoot: geminiCli.root });
  }
  return inListOrder(oneOfEach(out, theirs));
}

/**
 * A session id, `latest`, a 1-based number from the list, or a unique prefix of an id. An exact id wins over
 * every other reading: a session whose id is `1` or `latest` (custom ids may be either) is that session, not
 * a list position, and `abc` beside `abcdef` is `abc`, not ambiguous.
 */
export function findSession(projectTempDir: string, ref: string, onUnusable?: (message: string) => void): SessionInfo {
  return pickSession(listSessions(projectTempDir, onUnusable), ref);
}

/**
 * Whether the project has a recorded session with exactly this id (`--session-id`, an editor's load), from
 * each file's first line: a check that used to read every session of the project whole. Gemini CLI's count
 * unless `includeGeminiCli` is false (an editor loads a session of ours to go on under its id).
 */
export function hasSession(projectTempDir: string, id: string, includeGeminiCli = true): boolean {
  return sessionPlaces(projectTempDir, !includeGeminiCli).some((s) => s.id === id);
}

/** Throws what findSession throws for a reference that names no session, reading first lines only. */
export function checkSessionRef(projectTempDir: string, ref: string): void {
  pickSession(sessionPlaces(projectTempDir), ref);
}

/** The title of the session recorded in `file` (the chat's exit summary), reading only that file. */
export function recordedTitle(file: string): string | undefined {
  return readSession(file)?.title;
}

/** The session of the list `all` that `ref` names (see findSession), or SessionNotFoundError. */
function pickSession<T extends { id: string }>(all: T[], ref: string): T {
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

/**
 * The session `ref` names (see findSession), read whole: the only session file a resume reads whole. With
 * `oursOnly`, only sessions of ours are looked at (an editor's load of one it opened here).
 */
export function loadSession(projectTempDir: string, ref: string, oursOnly = false): LoadedSession {
  const place = pickSession(sessionPlaces(projectTempDir, oursOnly), ref);
  const s = readSession(place.file, undefined, place.geminiCliRoot);
  if (!s) throw new SessionNotFoundError(`Session ${place.id} can no longer be read.`);
  return {
    ...infoOf(place.file, s, place.updated),
    index: place.index,
    header: s.header,
    history: repairHistory(s.history),
    transcript: s.transcript,
  };
}

/** Deletes the session `ref` names (see findSession), reading only its own file whole (for its title). */
export function deleteSession(projectTempDir: string, ref: string): Pick<SessionInfo, 'index' | 'id' | 'title'> {
  const place = pickSession(sessionPlaces(projectTempDir), ref);
  if (place.geminiCliRoot !== undefined)
    throw new SessionNotFoundError(
      `Session ${place.index} was recorded by Gemini CLI, whose files are only read here: delete it with Gemini CLI.`,
    );
  const title = recordedTitle(place.file) ?? '';
  unlinkSync(place.file);
  return { index: place.index, id: place.id, title };
}
