import { randomUUID } from 'node:crypto';
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Content, Part } from '@google/genai';
import { SEPARATOR } from '../../protocol/tool-names.js';
import { geminiNameOf } from '../tools/builtin-catalogue.js';
import { geminiCliProjectDir } from './gemini-cli-folder.js';
import { readGeminiCliHeader } from './gemini-cli-sessions.js';
import type { HistoryListener } from './recorder.js';

/**
 * A session of ours, also written as Gemini CLI 0.61 records its own, into its folder for the project, so
 * that `gemini --resume` lists and continues it. Only where that folder exists (the user runs Gemini CLI
 * in this project); the file is Gemini CLI's format (gemini-cli-sessions.ts reads it), appended as ours is.
 *
 * Each committed change becomes the records Gemini CLI writes for it: a user message, a model message with
 * its calls (written again, same id, once their results are in, as Gemini CLI does), and `$set` updates.
 * A compression changes nothing there (Gemini CLI keeps what was said); any other replaced history (a
 * rewind, a restored checkpoint or saved chat) is one `$set` of all the messages.
 */

interface ToolCallRecord {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result?: Part[];
  status: 'executing' | 'success' | 'error';
}

interface MessageRecord {
  id: string;
  timestamp: string;
  type: 'user' | 'gemini';
  content: Part[] | string;
  toolCalls?: ToolCallRecord[];
  model?: string;
}

/** Our exposed name (`filesystem__read_file`) as Gemini CLI names the tool (`read_file`, `mcp_github_get_issue`). */
function geminiName(name: string): string {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return name;
  return geminiNameOf(name.slice(0, at), name.slice(at + SEPARATOR.length));
}

const renamedResponse = (p: Part): Part =>
  p.functionResponse
    ? { ...p, functionResponse: { ...p.functionResponse, name: geminiName(p.functionResponse.name ?? '') } }
    : p;

/** Turns our history's contents into Gemini CLI's message records, keeping the model message awaiting results. */
class MessageBuilder {
  pending?: MessageRecord;

  constructor(private readonly model: string) {}

  /** The records one content adds (a model message whose calls got results is returned again, updated). */
  add(content: Content, timestamp: string): MessageRecord[] {
    const parts = content.parts ?? [];
    if (content.role === 'model') return this.modelMessage(parts, timestamp);
    const out: MessageRecord[] = [];
    const answers = parts.filter((p) => p.functionResponse);
    if (answers.length && this.pending?.toolCalls) {
      for (const a of answers) {
        const call =
          this.pending.toolCalls.find((c) => c.id === a.functionResponse!.id) ??
          this.pending.toolCalls.find((c) => !c.result && c.name === geminiName(a.functionResponse!.name ?? ''));
        if (!call) continue;
        call.result = [renamedResponse(a)];
        call.status = a.functionResponse!.response && 'error' in a.functionResponse!.response ? 'error' : 'success';
      }
      out.push({ ...this.pending, toolCalls: this.pending.toolCalls.map((c) => ({ ...c })) });
      if (this.pending.toolCalls.every((c) => c.result)) this.pending = undefined;
    }
    const said = parts.filter((p) => !p.functionResponse);
    if (said.some((p) => (typeof p.text === 'string' && p.text.trim()) || p.inlineData || p.fileData))
      out.push({ id: randomUUID(), timestamp, type: 'user', content: said });
    return out;
  }

  private modelMessage(parts: Part[], timestamp: string): MessageRecord[] {
    const text = parts
      .filter((p) => typeof p.text === 'string' && !p.thought)
      .map((p) => p.text)
      .join('');
    const calls = parts.filter((p) => p.functionCall);
    if (!text && !calls.length) return [];
    const record: MessageRecord = { id: randomUUID(), timestamp, type: 'gemini', content: text, model: this.model };
    if (calls.length) {
      record.toolCalls = calls.map((p) => ({
        id: p.functionCall!.id ?? randomUUID(),
        name: geminiName(p.functionCall!.name ?? ''),
        args: p.functionCall!.args ?? {},
        status: 'executing' as const,
      }));
      this.pending = record;
    } else this.pending = undefined;
    return [record];
  }
}

/** Gemini CLI's file for a session of ours: the one already written for its id, else a new name as it names them. */
function mirrorFile(chats: string, id: string, start: Date): { file: string; exists: boolean } {
  const tail = `-${id.slice(0, 8)}.jsonl`;
  try {
    for (const name of readdirSync(chats)) {
      if (name.startsWith('session-') && name.endsWith(tail) && readGeminiCliHeader(join(chats, name))?.id === id)
        return { file: join(chats, name), exists: true };
    }
  } catch {
    // no chats folder yet: Gemini CLI makes it with its first session, and so do we
  }
  const stamp = start.toISOString().slice(0, 16).replace(/:/g, '-');
  return { file: join(chats, `session-${stamp}${tail}`), exists: false };
}

/**
 * Opens the copy for appending in another program's folder: never through a link, never waiting on a
 * FIFO, and only a regular file is written to.
 */
function openAppend(file: string): number {
  const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW, O_NONBLOCK } = constants;
  const fd = openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o600);
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  throw new Error(`${file} is not a regular file`);
}

export class GeminiCliMirror implements HistoryListener {
  private fd?: number;
  private failed = false;
  private readonly messages: MessageBuilder;
  private head?: string;

  private constructor(
    readonly file: string,
    model: string,
    head: object | undefined,
    private readonly onError?: (message: string) => void,
  ) {
    this.messages = new MessageBuilder(model);
    if (head) this.head = JSON.stringify(head);
  }

  /**
   * The mirror of session `id` of the project whose temp dir (ours) is `projectTempDir`, or undefined when
   * Gemini CLI has no folder for the project. `history` is what the session already holds (a resume): a
   * new mirror file starts with it.
   */
  static open(
    projectTempDir: string,
    id: string,
    model: string,
    history: Content[] = [],
    onError?: (message: string) => void,
  ): GeminiCliMirror | undefined {
    const dir = geminiCliProjectDir(projectTempDir);
    if (!dir) return undefined;
    const start = new Date();
    const { file, exists } = mirrorFile(join(dir, 'chats'), id, start);
    const head = exists
      ? undefined
      : {
          sessionId: id,
          projectHash: basename(projectTempDir),
          startTime: start.toISOString(),
          lastUpdated: start.toISOString(),
          kind: 'main',
        };
    const mirror = new GeminiCliMirror(file, model, head, onError);
    if (!exists && history.length) mirror.replaced(history, 'resume');
    return mirror;
  }

  appended(contents: Content[]): void {
    const timestamp = new Date().toISOString();
    const records = contents.flatMap((c) => this.messages.add(c, timestamp));
    if (records.length) this.write([...records, { $set: { lastUpdated: timestamp } }]);
  }

  replaced(history: Content[], reason: string): void {
    if (reason === 'compress') return;
    const timestamp = new Date().toISOString();
    this.messages.pending = undefined;
    const all = history.flatMap((c) => this.messages.add(c, timestamp));
    // A model message written again with its results stands once, where it was first.
    const messages = [...new Map(all.map((m) => [m.id, m])).values()];
    this.write([{ $set: { messages, lastUpdated: timestamp } }]);
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }

  private write(records: object[]): void {
    if (this.failed) return;
    try {
      if (this.fd === undefined) {
        mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
        this.fd = openAppend(this.file);
        if (this.head) writeSync(this.fd, `${this.head}\n`);
        this.head = undefined;
      }
      writeSync(this.fd, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    } catch (err) {
      // Gemini CLI's copy must never break the conversation or our own record: say so once and stop.
      this.failed = true;
      this.onError?.(`Gemini CLI's copy of this session stopped: ${(err as Error).message}`);
    }
  }
}
