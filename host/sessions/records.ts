import type { Content, Part } from '@google/genai';
import * as z from 'zod/mini';

/**
 * One session file is JSON Lines, append-only: a header, then one record per change of the conversation.
 * Replaying the records in order gives the history. A line that does not parse (a write torn by a kill)
 * is skipped, so a killed run loses at most what it was writing.
 */
export interface SessionHeader {
  type: 'session';
  version: 1;
  id: string;
  startTime: string;
  cwd: string;
  model: string;
  /** How the run was started: the terminal chat or a headless `-p` run. */
  kind: 'chat' | 'headless';
}

export type SessionRecord =
  | SessionHeader
  /** Contents appended to the history once they were committed (a finished model turn, answered calls). */
  | { type: 'content'; time: string; content: Content; typed?: string }
  /** The whole history replaced (compression, a restored checkpoint, a resumed tag). */
  | { type: 'replace'; time: string; reason: string; history: Content[] };

export const SESSION_FILE_PREFIX = 'session-';
export const SESSION_FILE_SUFFIX = '.jsonl';

let recordSchema: ReturnType<typeof buildRecordSchema> | undefined;
// Built at first use: a new session only writes records, and zod schemas cost a starting host CPU.
const RecordSchema = () => (recordSchema ??= buildRecordSchema());

/*
 * What a record must look like to be replayed. A record of the wrong shape (hand-edited, written by another
 * tool, or corrupted) is skipped and named, never allowed to break listing or resuming the session. Fields
 * we do not use pass through, so records from a newer version still replay.
 */
function buildRecordSchema() {
  const PartSchema = z.looseObject({
    text: z.optional(z.string()),
    thought: z.optional(z.boolean()),
    functionCall: z.optional(z.looseObject({ name: z.string(), id: z.optional(z.string()) })),
    functionResponse: z.optional(z.looseObject({ name: z.optional(z.string()), id: z.optional(z.string()) })),
  });
  const ContentSchema = z.looseObject({ role: z.optional(z.string()), parts: z.optional(z.array(PartSchema)) });
  return z.discriminatedUnion('type', [
    z.looseObject({
      type: z.literal('session'),
      version: z.number(),
      id: z.string().check(z.minLength(1)),
      startTime: z.string(),
      cwd: z.string(),
      model: z.string(),
      kind: z.catch(z.enum(['chat', 'headless']), 'chat'),
    }),
    z.looseObject({ type: z.literal('content'), time: z.string(), content: ContentSchema }),
    z.looseObject({
      type: z.literal('replace'),
      time: z.string(),
      reason: z.string(),
      history: z.array(ContentSchema),
    }),
  ]);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optional = (v: unknown, type: 'string' | 'boolean'): boolean => v === undefined || typeof v === type;

function isPlainPart(p: unknown): boolean {
  if (!isObject(p) || !optional(p.text, 'string') || !optional(p.thought, 'boolean')) return false;
  const call = p.functionCall;
  if (call !== undefined && !(isObject(call) && typeof call.name === 'string' && optional(call.id, 'string')))
    return false;
  const res = p.functionResponse;
  return res === undefined || (isObject(res) && optional(res.name, 'string') && optional(res.id, 'string'));
}

/**
 * A `content` record RecordSchema accepts, told without zod: all but a few records of a session are
 * these, and zod's copy of every record, content and part was most of resuming a 10,000-record session.
 * It accepts exactly what the schema's `content` branch does (loose objects keep their other fields, so
 * the record itself is the parsed value); anything else goes to the schema, which also names the problem.
 */
export function isPlainContentRecord(v: unknown): v is Extract<SessionRecord, { type: 'content' }> {
  if (!isObject(v) || v.type !== 'content' || typeof v.time !== 'string' || !isObject(v.content)) return false;
  const { role, parts } = v.content;
  if (!optional(role, 'string')) return false;
  return parts === undefined || (Array.isArray(parts) && parts.every(isPlainPart));
}

/** Whether RecordSchema accepts the value (tests hold isPlainContentRecord to it). */
export const schemaAccepts = (v: unknown): boolean => RecordSchema().safeParse(v).success;

/** Why a record was skipped: its line and, briefly, what is wrong with it. */
function problemOf(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'wrong shape';
  const at = issue.path.length ? `"${issue.path.join('.')}": ` : '';
  return `${at}${issue.message}`;
}

/**
 * The records that replay, and one line per line skipped because it has the wrong shape. A line that
 * does not parse as JSON is the last one a killed run was writing: skipped quietly.
 */
export function parseRecords(text: string): { records: SessionRecord[]; skipped: string[] } {
  const records: SessionRecord[] = [];
  const skipped: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // A torn line: the process died while writing it.
      continue;
    }
    if (isPlainContentRecord(value)) {
      records.push(value);
      continue;
    }
    const parsed = RecordSchema().safeParse(value);
    if (parsed.success) records.push(parsed.data as SessionRecord);
    else skipped.push(`line ${i + 1} (${problemOf(parsed.error)})`);
  }
  return { records, skipped };
}

/**
 * The header and the history the records describe, plus the first contents ever appended: a compressed
 * history starts with a snapshot, but the session is still titled by what the user first typed.
 */
export function foldRecords(records: SessionRecord[]): {
  header?: SessionHeader;
  history: Content[];
  firstContents: Content[];
  transcript: Content[];
  /** What the user typed for the first message, when it was a command (see SessionRecorder.noteTyped). */
  firstTyped?: string;
} {
  let header: SessionHeader | undefined;
  let history: Content[] = [];
  let transcript: Content[] = [];
  const firstContents: Content[] = [];
  let firstTyped: string | undefined;
  for (const r of records) {
    if (r.type === 'session') header ??= r;
    else if (r.type === 'content') {
      if (firstContents.length === 0 && typeof r.typed === 'string') firstTyped = r.typed;
      history.push(r.content);
      transcript.push(r.content);
      if (firstContents.length < 4) firstContents.push(r.content);
    } else if (r.type === 'replace' && Array.isArray(r.history)) {
      // A session that starts with a whole history (one of Gemini CLI's, continued) is titled by it.
      if (firstContents.length === 0) firstContents.push(...r.history.slice(0, 4));
      history = [...r.history];
      // Compression changes what the model is sent, not what the user saw: the screen keeps it all.
      if (r.reason !== 'compress') transcript = [...r.history];
    }
  }
  return { header, history, firstContents, transcript, firstTyped };
}

export const UNFINISHED_CALL_TEXT = 'The session ended before this tool call completed; its result is unknown.';

/**
 * A run killed while a tool ran leaves a model turn whose calls were never answered. The API rejects a
 * history like that, so each such call gets an error response saying what happened.
 */
export function repairHistory(history: Content[]): Content[] {
  const out = [...history];
  const last = out[out.length - 1];
  if (last?.role !== 'model') return out;
  const calls = (last.parts ?? []).filter((p) => p.functionCall);
  if (calls.length === 0) return out;
  const parts: Part[] = calls.map((p) => ({
    functionResponse: { id: p.functionCall!.id, name: p.functionCall!.name, response: { error: UNFINISHED_CALL_TEXT } },
  }));
  out.push({ role: 'user', parts });
  return out;
}

/** The first thing the user typed: the session's title in lists. */
export function titleOf(history: Content[], max = 80): string {
  for (const c of history) {
    if (c.role !== 'user') continue;
    const text = (c.parts ?? []).find((p) => typeof p.text === 'string' && p.text.trim() && !p.functionResponse)?.text;
    if (!text) continue;
    const line = text.trim().split('\n')[0]!.replace(/\s+/g, ' ').trimEnd();
    return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
  }
  return '(no prompt)';
}

/** Messages a person would count: user prompts and model answers, tool traffic left out. */
export function messageCount(history: Content[]): number {
  return history.filter((c) => (c.parts ?? []).some((p) => typeof p.text === 'string' && p.text.trim() && !p.thought))
    .length;
}
