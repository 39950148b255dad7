import type { FunctionCall, GenerateContentResponseUsageMetadata, Part } from '@google/genai';
import type { ToolCallRequestInfo } from '../scheduler/types.js';
import type { ServerGeminiStreamEvent, ThoughtSummary } from './events.js';
import { type GeminiChat, InvalidStreamError } from './gemini-chat.js';
import { apiErrorText } from './api-error-text.js';
import { HookHalt } from './model-hooks.js';
import { httpStatusOf } from './retry.js';

/** `subject` is the first `**bold**` span, `description` the rest. */
export function parseThought(text: string): ThoughtSummary {
  const m = /\*\*(.+?)\*\*/s.exec(text);
  if (!m) return { subject: '', description: text.trim() };
  return { subject: m[1]!.trim(), description: (text.slice(0, m.index) + text.slice(m.index + m[0].length)).trim() };
}

/** One model request/response turned into typed events; collects the function calls it asked for. */
export class Turn {
  readonly pendingToolCalls: ToolCallRequestInfo[] = [];
  usage?: GenerateContentResponseUsageMetadata;
  finishReason?: string;
  /** The visible text of this turn (after the last mid-stream retry). */
  text = '';

  constructor(
    private readonly chat: GeminiChat,
    private readonly promptId: string,
    /** Shared across the turns of a session so generated call ids stay unique. */
    private readonly ids: { next: number } = { next: 0 },
  ) {}

  private toRequest(fc: FunctionCall): ToolCallRequestInfo {
    const name = fc.name ?? 'undefined_tool_name';
    return {
      callId: fc.id ?? `${name}_${Date.now()}_${this.ids.next++}`,
      name,
      args: (fc.args ?? {}) as Record<string, unknown>,
      isClientInitiated: false,
      promptId: this.promptId,
    };
  }

  async *run(parts: Part[], signal: AbortSignal): AsyncGenerator<ServerGeminiStreamEvent> {
    const started = Date.now();
    try {
      for await (const ev of this.chat.sendMessageStream(parts, signal)) {
        if (signal.aborted) {
          yield { type: 'user_cancelled' };
          return;
        }
        if (ev.type === 'retry') {
          if (ev.value.discardPartial) {
            this.pendingToolCalls.length = 0;
            this.text = '';
          }
          yield ev;
          continue;
        }
        if (ev.type === 'model_fallback') {
          yield ev;
          continue;
        }
        const chunk = ev.value;
        const candidate = chunk.candidates?.[0];
        for (const part of candidate?.content?.parts ?? []) {
          if (part.thought) {
            if (part.text) yield { type: 'thought', value: parseThought(part.text) };
          } else if (part.functionCall) {
            const req = this.toRequest(part.functionCall);
            this.pendingToolCalls.push(req);
            yield { type: 'tool_call_request', value: req };
          } else if (typeof part.text === 'string' && part.text) {
            this.text += part.text;
            yield { type: 'content', value: part.text };
          }
        }
        if (chunk.usageMetadata) this.usage = chunk.usageMetadata;
        if (candidate?.finishReason) {
          this.finishReason = candidate.finishReason;
          yield { type: 'finished', value: { reason: candidate.finishReason, usageMetadata: chunk.usageMetadata } };
        }
      }
      if (this.usage)
        yield { type: 'usage', value: { model: this.chat.model, usage: this.usage, durationMs: Date.now() - started } };
    } catch (err) {
      if (signal.aborted) {
        yield { type: 'user_cancelled' };
        return;
      }
      if (err instanceof HookHalt) {
        const type = err.kind === 'stopped' ? 'agent_execution_stopped' : 'agent_execution_blocked';
        yield { type, value: { reason: err.reason } };
        return;
      }
      if (err instanceof InvalidStreamError) {
        yield { type: 'invalid_stream', value: { type: err.type, message: err.message } };
        return;
      }
      yield {
        type: 'error',
        value: { error: { message: apiErrorText(err, this.chat.model), status: httpStatusOf(err) } },
      };
    }
  }
}
