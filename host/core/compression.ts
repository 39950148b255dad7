import type { Content } from '@google/genai';
import type { ContentGenerator } from './content-generator.js';
import type { GeminiChat } from './gemini-chat.js';
import type { ChatCompressionInfo } from './events.js';
import { curateHistory, isFunctionResponseContent, mergeAdjacent } from './history.js';
import { withRequestSignal } from './request-signal.js';

/** `model.compressionThreshold`: the fraction of the context window at which history is compressed. */
export const DEFAULT_COMPRESSION_THRESHOLD = 0.5;
/** The newest part of the history, by size, that is kept verbatim. */
export const PRESERVE_FRACTION = 0.3;
export const SNAPSHOT_ACK = 'Got it. Thanks for the additional context!';

const DEFAULT_TOKEN_LIMIT = 1_048_576;
const TOKEN_LIMITS: [RegExp, number][] = [[/^gemini-1\.5-pro/, 2_097_152]];

/** The context window of a model, in tokens. */
export function tokenLimit(model: string): number {
  return TOKEN_LIMITS.find(([re]) => re.test(model))?.[1] ?? DEFAULT_TOKEN_LIMIT;
}

// A call's or response's size as JSON, measured once: the estimate runs before every request over the
// whole history, and serialising every tool response again each turn made most of a long session's
// garbage (a 60-turn session: 17 of 120 MB allocated).
const jsonChars = new WeakMap<object, number>();
function jsonLength(value: object): number {
  let n = jsonChars.get(value);
  if (n === undefined) jsonChars.set(value, (n = JSON.stringify(value).length));
  return n;
}

/** A character-based estimate (about four characters a token); media parts count a fixed amount. */
export function estimateTokens(contents: Content[]): number {
  let chars = 0;
  let media = 0;
  for (const c of contents) {
    for (const p of c.parts ?? []) {
      if (typeof p.text === 'string') chars += p.text.length;
      if (p.functionCall) chars += jsonLength(p.functionCall);
      if (p.functionResponse) chars += jsonLength(p.functionResponse);
      if (p.inlineData || p.fileData) media += 258;
    }
  }
  return Math.ceil(chars / 4) + media;
}

const sizeOf = (c: Content) => JSON.stringify(c.parts ?? []).length;

/**
 * Where the kept part starts: the first plain user message once the older part holds at least
 * `1 - keep` of the size. Only a user message that is not a function response starts a new exchange, so a
 * call and its response always end up on the same side. The whole history may go when it ends with a
 * finished model answer; 0 means nothing can be summarised.
 */
export function findSplitPoint(contents: Content[], keep = PRESERVE_FRACTION): number {
  const sizes = contents.map(sizeOf);
  const total = sizes.reduce((a, b) => a + b, 0);
  const target = total * (1 - keep);
  let seen = 0;
  let lastBoundary = 0;
  for (let i = 0; i < contents.length; i++) {
    const c = contents[i]!;
    if (c.role === 'user' && !isFunctionResponseContent(c)) {
      if (seen >= target) return i;
      lastBoundary = i;
    }
    seen += sizes[i]!;
  }
  const end = contents[contents.length - 1];
  if (end?.role === 'model' && !end.parts?.some((p) => p.functionCall)) return contents.length;
  return lastBoundary;
}

const SNAPSHOT_PROMPT = `You are the memory of a coding agent whose conversation has grown too long.
Write a compact state snapshot that lets the agent continue the task with nothing else. Use this XML form and
fill every section (write "none" where nothing applies):
<state_snapshot>
  <overall_goal>What the user ultimately wants, in one or two sentences.</overall_goal>
  <constraints>Rules, preferences and decisions the user stated.</constraints>
  <key_knowledge>Facts learned: commands, APIs, paths, conventions, errors and their causes.</key_knowledge>
  <file_system_state>Files read, created, changed or deleted, with what matters about each.</file_system_state>
  <recent_actions>The last steps taken and their results.</recent_actions>
  <current_plan>Numbered steps, each marked DONE, IN PROGRESS or TODO.</current_plan>
</state_snapshot>
Be specific (names, paths, values). Leave out chit-chat. Reply with the snapshot only.`;

export interface CompressOptions {
  /** Read, never changed: the result's history is a new array (kept contents are copied by setHistory). */
  history: readonly Content[];
  generator: ContentGenerator;
  model: string;
  signal: AbortSignal;
  /** Compress whatever the size (`/compress`). */
  force: boolean;
  threshold: number;
  /** The prompt size the API last reported; the estimate is used when it is larger. */
  lastPromptTokens?: number;
  /** Called once compression will happen, before the summary is asked for (the PreCompress hook). */
  beforeSummary?: () => Promise<void>;
}

export interface CompressResult {
  info: ChatCompressionInfo;
  /** The new history, when compression succeeded. */
  history?: Content[];
}

/**
 * Summarises the older part of the history into a state snapshot with one model request and keeps the
 * newest part verbatim. The result is rejected when it would not be smaller.
 */
export async function compressHistory(opts: CompressOptions): Promise<CompressResult> {
  const curated = curateHistory(opts.history);
  const original = Math.max(estimateTokens(curated), opts.lastPromptTokens ?? 0);
  const noop = (reason: string): CompressResult => ({
    info: { originalTokenCount: original, newTokenCount: original, status: 'noop', reason },
  });
  if (curated.length === 0) return noop('the history is empty');
  if (!opts.force && original < opts.threshold * tokenLimit(opts.model)) return noop('below the threshold');
  const split = findSplitPoint(curated);
  if (split === 0) return noop('nothing old enough to summarise');
  const older = curated.slice(0, split);
  const kept = curated.slice(split);
  await opts.beforeSummary?.();
  let summary: string;
  try {
    const res = await withRequestSignal(opts.signal, (abortSignal) =>
      opts.generator.generateContent({
        model: opts.model,
        contents: mergeAdjacent([
          ...older,
          { role: 'user', parts: [{ text: 'Write the <state_snapshot> of the conversation so far now.' }] },
        ]),
        config: { abortSignal, systemInstruction: SNAPSHOT_PROMPT },
      }),
    );
    summary = (res.candidates?.[0]?.content?.parts ?? [])
      .filter((p) => !p.thought && typeof p.text === 'string')
      .map((p) => p.text)
      .join('')
      .trim();
  } catch (err) {
    if (opts.signal.aborted) throw err;
    return {
      info: { originalTokenCount: original, newTokenCount: original, status: 'failed', reason: (err as Error).message },
    };
  }
  if (!summary)
    return {
      info: {
        originalTokenCount: original,
        newTokenCount: original,
        status: 'empty_summary',
        reason: 'the model returned an empty summary',
      },
    };
  const history: Content[] = [
    { role: 'user', parts: [{ text: summary }] },
    { role: 'model', parts: [{ text: SNAPSHOT_ACK }] },
    ...kept,
  ];
  const after = estimateTokens(history);
  if (after >= original) {
    return {
      info: {
        originalTokenCount: original,
        newTokenCount: after,
        status: 'inflated',
        reason: 'the summary was not smaller than the history',
      },
    };
  }
  return { info: { originalTokenCount: original, newTokenCount: after, status: 'compressed' }, history };
}

/**
 * A chat's compression state: the prompt size the API last reported, and whether the last attempt failed
 * (then it is not retried on every turn; `/compress` still runs).
 */
export class ChatCompressor {
  private lastPromptTokens = 0;
  private failed = false;

  constructor(private readonly threshold = DEFAULT_COMPRESSION_THRESHOLD) {}

  notePromptTokens(count: number | undefined): void {
    if (count) this.lastPromptTokens = count;
  }

  async run(
    chat: GeminiChat,
    generator: ContentGenerator,
    signal: AbortSignal,
    force: boolean,
    beforeSummary?: () => Promise<void>,
  ): Promise<ChatCompressionInfo> {
    if (!force && (this.failed || !(this.threshold > 0))) {
      return { originalTokenCount: this.lastPromptTokens, newTokenCount: this.lastPromptTokens, status: 'noop' };
    }
    const result = await compressHistory({
      history: chat.readHistory(),
      generator,
      model: chat.model,
      signal,
      force,
      threshold: this.threshold,
      lastPromptTokens: this.lastPromptTokens,
      beforeSummary,
    });
    if (result.history) {
      chat.setHistory(result.history, 'compress');
      this.lastPromptTokens = result.info.newTokenCount;
      this.failed = false;
    } else if (result.info.status !== 'noop') {
      this.failed = true;
    }
    return result.info;
  }
}
