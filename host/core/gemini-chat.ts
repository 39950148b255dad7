import type { Content, FunctionDeclaration, GenerateContentConfig, GenerateContentResponse, Part } from '@google/genai';
import type { ContentGenerator } from './content-generator.js';
import type { InvalidStreamType, ModelFallbackValue, RetryEventValue } from './events.js';
import {
  INTERRUPTED_TEXT,
  aggregateModelParts,
  curateHistory,
  isFunctionResponseContent,
  mergeAdjacent,
} from './history.js';
import { fallbackMessage, ModelSelection } from './models.js';
import { requestSignal } from './request-signal.js';
import { HookHalt, type ModelHooks } from './model-hooks.js';
import {
  describeError,
  EndpointUnreachableError,
  isQuotaExhausted,
  isRetryable,
  isUnreachable,
  nextDelay,
  serverRetryDelayMs,
  sleep,
  UNREACHABLE_ATTEMPTS,
  unreachableDelay,
} from './retry.js';

export class InvalidStreamError extends Error {
  constructor(
    message: string,
    readonly type: InvalidStreamType,
  ) {
    super(message);
    this.name = 'InvalidStreamError';
  }
}

export interface RetryConfig {
  /** Connection layer (errors before the stream starts). */
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  /** Mid-stream layer (errors while iterating, invalid streams). */
  midStreamAttempts: number;
  midStreamDelayMs: number;
  retryFetchErrors: boolean;
}

export const DEFAULT_RETRY: RetryConfig = {
  maxAttempts: 10,
  initialDelayMs: 5000,
  maxDelayMs: 30000,
  midStreamAttempts: 4,
  midStreamDelayMs: 1000,
  retryFetchErrors: true,
};

/** What each request carries besides the history; asked for per request so tool changes apply at once. */
export interface RequestShape {
  systemInstruction?: string;
  tools?: FunctionDeclaration[];
  generationConfig?: GenerateContentConfig;
}

export type ChatStreamEvent =
  | { type: 'chunk'; value: GenerateContentResponse }
  | { type: 'retry'; value: RetryEventValue }
  | { type: 'model_fallback'; value: ModelFallbackValue };

const NUDGE =
  'Please provide a response to the user based on the conversation so far; do not reply with thoughts only.';
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const BLOCKED: Record<string, InvalidStreamType> = {
  MAX_TOKENS: 'MAX_TOKENS_EXCEEDED',
  SAFETY: 'SAFETY_BLOCKED',
  RECITATION: 'RECITATION_BLOCKED',
  OTHER: 'OTHER_BLOCKED',
};

function partsOf(chunk: GenerateContentResponse): Part[] {
  return chunk.candidates?.[0]?.content?.parts ?? [];
}

/** Checks a finished stream that had no function call. */
function validate(chunks: GenerateContentResponse[], isFunctionResponse: boolean): InvalidStreamError | undefined {
  let finish: string | undefined;
  let visible = '';
  let thoughts = false;
  for (const c of chunks) {
    finish = c.candidates?.[0]?.finishReason ?? finish;
    for (const p of partsOf(c)) {
      if (p.thought) thoughts = true;
      else if (typeof p.text === 'string') visible += p.text;
    }
  }
  if (finish === 'MALFORMED_FUNCTION_CALL' || finish === 'UNEXPECTED_TOOL_CALL') {
    return new InvalidStreamError(`Model stream ended with finish reason ${finish}.`, finish);
  }
  if (!finish && !isFunctionResponse) {
    return new InvalidStreamError('Model stream ended without a finish reason.', 'NO_FINISH_REASON');
  }
  const text = visible.replace(ZERO_WIDTH, '').replace(HTML_COMMENT, '').trim();
  if (text) return undefined;
  if (finish && BLOCKED[finish])
    return new InvalidStreamError(`Model returned no text (finish reason ${finish}).`, BLOCKED[finish]);
  if (thoughts) return new InvalidStreamError('Model returned only thoughts and no answer.', 'THINKING_ONLY_RESPONSE');
  // Also after a function response: storing an empty model turn would make every later request invalid.
  return new InvalidStreamError('Model stream ended with an empty response.', 'NO_RESPONSE_TEXT');
}

/** Told about committed history changes only (a rolled-back send is never reported): the session recorder. */
export interface ChatHistoryListener {
  appended(contents: Content[]): void;
  replaced(history: Content[], reason: string): void;
}

/** Holds the conversation and talks to the generator; sends are serialised. */
export class GeminiChat {
  private history: Content[] = [];
  private queue: Promise<void> = Promise.resolve();
  listener?: ChatHistoryListener;
  /** BeforeModel / BeforeToolSelection / AfterModel hooks around each request. */
  modelHooks?: ModelHooks;
  /** The user's model choice (an alias or a name) and the model in use for it. */
  selection: ModelSelection;

  constructor(
    private readonly generator: ContentGenerator,
    model: string,
    private readonly shape: () => RequestShape | Promise<RequestShape>,
    private readonly retry: RetryConfig = DEFAULT_RETRY,
  ) {
    this.selection = new ModelSelection(model);
  }

  /** The model requests go to: the choice's alias resolved, or its fallback after a usage limit. */
  get model(): string {
    return this.selection.inUse;
  }

  /** A new choice (`/model`, a restored session): its fallbacks start afresh. */
  set model(requested: string) {
    this.selection = new ModelSelection(requested);
  }

  getHistory(curated = false): Content[] {
    return structuredClone(curated ? curateHistory(this.history) : this.history);
  }

  /**
   * The live history, not a copy, for readers that only look (the compression check estimates its size
   * before every request: copying a long history each turn cost ~20 ms at 10,000 contents). Callers must
   * not change it or keep it past the call.
   */
  readHistory(): readonly Content[] {
    return this.history;
  }

  /**
   * Takes a history nobody else holds (one just read from a session file) without copying it, and tells
   * no listener: copying 10,000 resumed contents cost ~20 ms of the resume.
   */
  adoptHistory(history: Content[]): void {
    this.history = history;
  }

  setHistory(history: Content[], reason = 'set'): void {
    this.history = structuredClone(history);
    this.listener?.replaced(structuredClone(history), reason);
  }

  addHistory(content: Content): void {
    this.history.push(structuredClone(content));
    this.listener?.appended([structuredClone(content)]);
  }

  /** Streams one model response to `parts`; stores the user content and the aggregated model turn. */
  async *sendMessageStream(parts: Part[], signal: AbortSignal): AsyncGenerator<ChatStreamEvent> {
    const previous = this.queue;
    let release!: () => void;
    this.queue = new Promise((r) => (release = r));
    await previous;
    const startLength = this.history.length;
    let rollbackTo = this.history.length;
    let stored = false;
    const isFunctionResponse = parts.some((p) => p.functionResponse);
    let keepResponses = false;
    let partial: GenerateContentResponse[] = [];
    try {
      if (!isFunctionResponse && isFunctionResponseContent(this.history[this.history.length - 1])) {
        this.history.push({ role: 'model', parts: [{ text: INTERRUPTED_TEXT }] });
        rollbackTo++; // the marker keeps the earlier responses answered whatever happens to this send
      }
      this.history.push({ role: 'user', parts: structuredClone(parts) });
      keepResponses = isFunctionResponse;
      let nudge = false;
      for (let attempt = 1; ; attempt++) {
        const chunks: GenerateContentResponse[] = [];
        partial = chunks;
        let opened = false;
        const request = requestSignal(signal);
        try {
          const stream = yield* this.open(nudge, request.signal);
          opened = true;
          for await (const chunk of stream) {
            chunks.push(chunk);
            yield { type: 'chunk', value: chunk };
          }
          const sawCall = chunks.some((c) => partsOf(c).some((p) => p.functionCall));
          const invalid = sawCall ? undefined : validate(chunks, isFunctionResponse);
          if (invalid) throw invalid;
          this.history.push({ role: 'model', parts: aggregateModelParts(chunks.flatMap(partsOf)) });
          stored = true;
          return;
        } catch (err) {
          if (signal.aborted) throw err;
          // Failures to open were already retried by the connection layer.
          const retryable =
            err instanceof InvalidStreamError || (opened && isRetryable(err, this.retry.retryFetchErrors));
          if (!retryable || attempt >= this.retry.midStreamAttempts) throw err;
          const delayMs = this.retry.midStreamDelayMs * 2 ** (attempt - 1);
          nudge =
            err instanceof InvalidStreamError &&
            (err.type === 'THINKING_ONLY_RESPONSE' || err.type === 'NO_RESPONSE_TEXT');
          yield {
            type: 'retry',
            value: {
              attempt,
              maxAttempts: this.retry.midStreamAttempts,
              delayMs,
              reason: describeError(err),
              discardPartial: true,
            },
          };
          await sleep(delayMs, signal);
        } finally {
          request.dispose();
        }
      }
    } finally {
      // Failure, abort, or a consumer that stopped iterating: a plain user content goes too.
      // Function responses stay: they answer the model turn before them, and without them that turn's
      // calls would dangle and the API would reject every later request.
      if (!stored && signal.aborted && !isFunctionResponse) this.keepInterrupted(partial);
      else if (!stored) this.history.length = keepResponses ? rollbackTo + 1 : rollbackTo;
      if (this.history.length > startLength) this.listener?.appended(structuredClone(this.history.slice(startLength)));
      release();
    }
  }

  /**
   * The user stopped this prompt: their words stay, with the text the model had streamed and a marker
   * saying it was cut off, so "go on" in the next prompt means something. (Gemini CLI 0.61 rolls the whole
   * prompt back instead, and the model never learns what was asked.) Calls the model had begun are dropped:
   * none of them ran.
   */
  private keepInterrupted(partial: GenerateContentResponse[]): void {
    const said = aggregateModelParts(partial.flatMap(partsOf)).filter((p) => p.text !== undefined && !p.functionCall);
    this.history.push({ role: 'model', parts: [...said, { text: INTERRUPTED_TEXT }] });
  }

  /** Opens the stream, retrying connection failures with backoff and reporting each retry. */
  private async *open(
    nudge: boolean,
    signal: AbortSignal,
  ): AsyncGenerator<ChatStreamEvent, AsyncGenerator<GenerateContentResponse>> {
    let delay = this.retry.initialDelayMs;
    for (let attempt = 1; ; attempt++) {
      const shape = await this.shape();
      const contents = mergeAdjacent(curateHistory(this.history));
      // The last content may be the history's own (mergeAdjacent copies only what it merges): nudged as a copy.
      const last = contents.length - 1;
      if (nudge) contents[last] = { ...contents[last], parts: [...(contents[last]!.parts ?? []), { text: NUDGE }] };
      const config: GenerateContentConfig = { ...shape.generationConfig, abortSignal: signal };
      if (shape.systemInstruction) config.systemInstruction = shape.systemInstruction;
      if (shape.tools?.length) config.tools = [{ functionDeclarations: shape.tools }];
      try {
        const hooked = await this.modelHooks?.before({ model: this.model, contents, config }, signal);
        if (hooked?.response) return single(hooked.response);
        const request = hooked?.request ?? { model: this.model, contents, config };
        const stream = await this.generator.generateContentStream(request);
        return this.modelHooks ? this.modelHooks.after(request, stream, signal) : stream;
      } catch (err) {
        if (signal.aborted || err instanceof HookHalt) throw err;
        const failed = this.model;
        // Another model may still have quota: the request goes again at once, and the session stays there.
        const to = isQuotaExhausted(err) ? this.selection.fallback(failed) : undefined;
        if (to) {
          yield { type: 'model_fallback', value: { from: failed, to, message: fallbackMessage(failed, to) } };
          continue;
        }
        const unreachable = isUnreachable(err);
        const maxAttempts = unreachable
          ? Math.min(UNREACHABLE_ATTEMPTS, this.retry.maxAttempts)
          : this.retry.maxAttempts;
        if (attempt >= maxAttempts || !isRetryable(err, this.retry.retryFetchErrors)) {
          if (isUnreachable(err))
            throw new EndpointUnreachableError(this.generator.endpoint ?? 'the model endpoint', err);
          throw err;
        }
        const server = serverRetryDelayMs(err);
        if (server !== undefined && server > 300_000) throw err;
        const delayMs = unreachable
          ? unreachableDelay(attempt, this.retry.initialDelayMs)
          : nextDelay(delay, err, this.retry);
        yield {
          type: 'retry',
          value: {
            attempt,
            maxAttempts,
            delayMs,
            reason: describeError(err),
            discardPartial: false,
          },
        };
        await sleep(delayMs, signal);
        delay = Math.min(this.retry.maxDelayMs, delay * 2);
      }
    }
  }
}

/** A response a hook gave in place of the model's, as a one-chunk stream. */
async function* single(response: GenerateContentResponse): AsyncGenerator<GenerateContentResponse> {
  yield response;
}
