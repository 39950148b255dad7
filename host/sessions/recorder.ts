import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Content } from '@google/genai';
import { SESSION_FILE_PREFIX, SESSION_FILE_SUFFIX, type SessionHeader, type SessionRecord } from './records.js';

/** What GeminiChat tells its listener about committed history changes. */
export interface HistoryListener {
  appended(contents: Content[]): void;
  replaced(history: Content[], reason: string): void;
}

export function chatsDir(projectTempDir: string): string {
  return join(projectTempDir, 'chats');
}

function fileStamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/:/g, '-');
}

/**
 * Appends a session's records to its JSONL file as they happen. Each record is one `write` of a whole
 * line, so a process killed at any point leaves every earlier record intact. The file is created with
 * the first record, so a run that never talked to the model leaves nothing behind.
 */
export class SessionRecorder implements HistoryListener {
  private typed?: string;
  readonly id: string;
  readonly file: string;
  private fd?: number;
  private readonly header?: SessionHeader;
  private failed = false;
  private continued = false;
  /** Gemini CLI's copy of the session (gemini-cli-mirror.ts), told every change after our own record. */
  private mirror?: HistoryListener & { close(): void };
  private openMirror?: () => (HistoryListener & { close(): void }) | undefined;

  /** A new session, or (with `existing`) one being resumed: records go to the end of its file. */
  constructor(
    dir: string,
    meta: Omit<SessionHeader, 'type' | 'version' | 'id' | 'startTime'>,
    existing?: { id: string; file: string },
    private readonly onError?: (message: string) => void,
    /** A new session's id chosen by the user (`--session-id`); a random UUID otherwise. */
    newId?: string,
  ) {
    if (existing) {
      this.id = existing.id;
      this.file = existing.file;
      this.continued = true;
      return;
    }
    this.id = newId ?? randomUUID();
    const start = new Date();
    this.file = join(dir, `${SESSION_FILE_PREFIX}${fileStamp(start)}-${this.id.slice(0, 8)}${SESSION_FILE_SUFFIX}`);
    this.header = { type: 'session', version: 1, id: this.id, startTime: start.toISOString(), ...meta };
  }

  /**
   * Keeps a copy elsewhere too, opened at the first change to record: finding where costs reading another
   * program's files, which a start need not wait for.
   */
  copyTo(open: () => (HistoryListener & { close(): void }) | undefined): void {
    this.openMirror = open;
  }

  private copy(): (HistoryListener & { close(): void }) | undefined {
    if (this.openMirror) {
      this.mirror = this.openMirror();
      this.openMirror = undefined;
    }
    return this.mirror;
  }

  /** Whether the session has a file (a new session that never sent a message has none). */
  get written(): boolean {
    return this.continued || this.fd !== undefined;
  }

  /**
   * What the user typed when it differs from the message the model gets (a custom command's `/name args`,
   * an MCP prompt): kept with the next user message, so the session is titled and listed by it.
   */
  noteTyped(text: string): void {
    this.typed = text;
  }

  appended(contents: Content[]): void {
    const time = new Date().toISOString();
    for (const content of contents) {
      const typed = content.role === 'user' ? this.typed : undefined;
      if (typed) this.typed = undefined;
      this.write({ type: 'content', time, content, ...(typed ? { typed } : {}) });
    }
    this.copy()?.appended(contents);
  }

  replaced(history: Content[], reason: string): void {
    this.write({ type: 'replace', time: new Date().toISOString(), reason, history });
    this.copy()?.replaced(history, reason);
  }

  close(): void {
    this.mirror?.close();
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }

  private write(rec: SessionRecord): void {
    if (this.failed) return;
    try {
      if (this.fd === undefined) {
        mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 });
        this.fd = openSync(this.file, 'a', 0o600);
        if (this.header) writeSync(this.fd, `${JSON.stringify(this.header)}\n`);
      }
      writeSync(this.fd, `${JSON.stringify(rec)}\n`);
    } catch (err) {
      // Recording must never break the conversation itself; say so once and stop trying.
      this.failed = true;
      this.onError?.(`Session recording stopped: ${(err as Error).message}`);
    }
  }
}
