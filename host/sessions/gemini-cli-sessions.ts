import type { Content, Part } from '@google/genai';
import { readConfigFileHead } from '../config/config-file.js';
import { GEMINI_CLI_SESSION_MAX_BYTES, isObject, readGeminiCliText } from './gemini-cli-folder.js';
import { builtinByName } from '../tools/builtin-catalogue.js';
import { exposedName } from '../tools/naming.js';

/**
 * Gemini CLI 0.61's recorded sessions of a project, read so that `--resume` and `--list-sessions` offer
 * them too: a Gemini CLI user's conversations carry on here. They are only read; resuming one records
 * its continuation as a session of ours, and Gemini CLI's file is left as it was (where they are:
 * gemini-cli-folder.ts).
 *
 * A session file is JSON Lines: a metadata line (`sessionId`, `startTime`, `kind`), then message records
 * (`id`, `type`, `content`, `toolCalls`), where a later record with the same id replaces the earlier one in
 * place, `{"$set": …}` updates (a `messages` array replaces them all) and `{"$rewindTo": id}`, which drops
 * that message and everything after it.
 */

export interface GeminiCliSession {
  id: string;
  startTime: string;
  history: Content[];
}

interface Message {
  id: string;
  type?: unknown;
  content?: unknown;
  toolCalls?: unknown;
}

/** Enough for any metadata line. */
const HEADER_BYTES = 64 * 1024;

/** Why a session of ours starts with a whole history: it continues one of Gemini CLI's. */
export const GEMINI_CLI_RESUME = 'resumed from Gemini CLI';

/** The session in a Gemini CLI session file (see readGeminiCliSession). */
export function readGeminiCliFile(file: string): GeminiCliSession | undefined {
  const text = readGeminiCliText(file, GEMINI_CLI_SESSION_MAX_BYTES);
  return text === undefined ? undefined : readGeminiCliSession(text);
}

/**
 * Gemini CLI writes a session file at every start, before anything is typed (its `<session_context>`
 * only), and its own list leaves those out; so does ours. A file this large is taken to hold a
 * conversation without being read through (a list must not read every large file to number them).
 */
const TALKED_SIZE = 64 * 1024;

/** Whether a Gemini CLI session of `size` bytes, whose history is `history()`, has anything to go on with. */
export function geminiCliSessionTalked(size: number, history: () => Content[] | undefined): boolean {
  return size >= TALKED_SIZE || (history()?.length ?? 0) > 0;
}

/** A Gemini CLI session file's id and start, from its first line only. */
export function readGeminiCliHeader(file: string): { id: string; startTime: string } | undefined {
  let head: string | undefined;
  try {
    head = readConfigFileHead(file, HEADER_BYTES);
  } catch {
    return undefined;
  }
  return head === undefined ? undefined : geminiCliHeader(head.split('\n')[0]!);
}

/** A main session's id and start from the metadata on its first line; undefined for anything else. */
export function geminiCliHeader(firstLine: string): { id: string; startTime: string } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(firstLine);
  } catch {
    return undefined;
  }
  if (!isObject(v) || typeof v.sessionId !== 'string' || !v.sessionId) return undefined;
  // A subagent's own record is not a conversation of the user's.
  if (v.kind !== undefined && v.kind !== 'main') return undefined;
  return { id: v.sessionId, startTime: typeof v.startTime === 'string' ? v.startTime : '' };
}

/** The session in `text` (a whole file), with its messages turned into the model's history. */
export function readGeminiCliSession(text: string): GeminiCliSession | undefined {
  const lines = text.split('\n');
  const header = geminiCliHeader(lines[0] ?? '');
  if (!header) return undefined;
  const messages = new Map<string, Message>();
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch {
      continue; // torn by a kill, as ours can be
    }
    if (!isObject(r)) continue;
    if (typeof r.$rewindTo === 'string') rewind(messages, r.$rewindTo);
    else if (typeof r.id === 'string') messages.set(r.id, r as unknown as Message);
    else if (isObject(r.$set) && Array.isArray(r.$set.messages)) {
      messages.clear();
      for (const m of r.$set.messages)
        if (isObject(m) && typeof m.id === 'string') messages.set(m.id, m as unknown as Message);
    }
  }
  return { ...header, history: historyOf([...messages.values()]) };
}

/** `$rewindTo`: the message and all after it go; an id no longer there takes them all, as in Gemini CLI. */
function rewind(messages: Map<string, Message>, id: string): void {
  let dropping = !messages.has(id);
  for (const key of [...messages.keys()]) {
    if (key === id) dropping = true;
    if (dropping) messages.delete(key);
  }
}

const asParts = (content: unknown): Part[] =>
  (Array.isArray(content) ? content : content === undefined || content === '' ? [] : [content])
    .map((p) => (typeof p === 'string' ? { text: p } : p))
    .filter(isObject) as Part[];

const textOf = (parts: Part[]): string => parts.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');

/** What Gemini CLI itself leaves out of a resumed history: empty turns, its commands, its injected context. */
const IGNORED_USER_TEXT = /^(\/|\?|<session_context>|<hook_context>)/;

/** Gemini CLI's name of a built-in tool as the model knows it here (`read_file` → `filesystem__read_file`). */
function ourName(name: unknown): unknown {
  if (typeof name !== 'string') return name;
  const row = builtinByName(name);
  return row && row.server !== '@host' ? exposedName(row.server, row.tool) : name;
}

function renamed(part: Part): Part {
  if (part.functionCall)
    return { ...part, functionCall: { ...part.functionCall, name: ourName(part.functionCall.name) as string } };
  if (part.functionResponse)
    return {
      ...part,
      functionResponse: { ...part.functionResponse, name: ourName(part.functionResponse.name) as string },
    };
  return part;
}

/**
 * A history Gemini CLI saved (`/chat save`) as the model here goes on with it: without the context turn
 * Gemini CLI puts first (its `<session_context>`: its name, date, folders), with its built-in tools under
 * the names the model has here.
 */
export function savedChatHistory(history: Content[]): Content[] {
  const first = history[0];
  const context =
    first?.role === 'user' &&
    textOf(first.parts ?? [])
      .trimStart()
      .startsWith('<session_context>');
  return (context ? history.slice(1) : history).map((c) => (c.parts ? { ...c, parts: c.parts.map(renamed) } : c));
}

/** The calls a model message made, and the answers they got (calls still running have none). */
function callsOf(toolCalls: unknown): { calls: Part[]; answers: Part[] } {
  const calls: Part[] = [];
  const answers: Part[] = [];
  for (const c of Array.isArray(toolCalls) ? toolCalls : []) {
    if (!isObject(c) || typeof c.name !== 'string') continue;
    const id = typeof c.id === 'string' ? c.id : undefined;
    const args = isObject(c.args) ? c.args : {};
    calls.push({ functionCall: { ...(id ? { id } : {}), name: c.name, args } });
    if (typeof c.result === 'string')
      answers.push({ functionResponse: { ...(id ? { id } : {}), name: c.name, response: { output: c.result } } });
    else if (Array.isArray(c.result)) answers.push(...asParts(c.result));
    else if (isObject(c.result)) answers.push(c.result as Part);
  }
  return { calls, answers };
}

/** Gemini CLI's messages as the model's history: user turns, model turns with their calls, the calls' answers. */
export function historyOf(messages: Message[]): Content[] {
  const out: Content[] = [];
  for (const m of messages) {
    const parts = asParts(m.content);
    if (m.type === 'user') {
      const text = textOf(parts).trim();
      if (text && !IGNORED_USER_TEXT.test(text)) out.push({ role: 'user', parts });
      continue;
    }
    if (m.type !== 'gemini') continue; // info, warning, error: what the screen showed, never the model
    const inline = parts.some((p) => p.functionCall);
    const { calls, answers } = callsOf(m.toolCalls);
    const model = [...parts.filter((p) => !p.thought), ...(inline ? [] : calls)].map(renamed);
    if (!model.length) continue;
    out.push({ role: 'model', parts: model });
    if (answers.length) out.push({ role: 'user', parts: answers.map(renamed) });
  }
  return out;
}
