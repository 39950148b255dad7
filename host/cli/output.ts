import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import type { ToolCall } from '../scheduler/types.js';

/** Per-model and per-tool counters for the json / stream-json result (host reference 8.5). */
export class RunStats {
  readonly started = Date.now();
  readonly models: Record<string, {
    api: { totalRequests: number; totalErrors: number; totalLatencyMs: number };
    tokens: { prompt: number; candidates: number; total: number; cached: number; thoughts: number };
  }> = {};
  readonly tools = {
    totalCalls: 0,
    totalSuccess: 0,
    totalFail: 0,
    totalDurationMs: 0,
    byName: {} as Record<string, { count: number; success: number; fail: number; durationMs: number }>,
  };

  private model(name: string) {
    return (this.models[name] ??= {
      api: { totalRequests: 0, totalErrors: 0, totalLatencyMs: 0 },
      tokens: { prompt: 0, candidates: 0, total: 0, cached: 0, thoughts: 0 },
    });
  }

  usage(model: string, u: GenerateContentResponseUsageMetadata, durationMs: number): void {
    const m = this.model(model);
    m.api.totalRequests++;
    m.api.totalLatencyMs += durationMs;
    m.tokens.prompt += u.promptTokenCount ?? 0;
    m.tokens.candidates += u.candidatesTokenCount ?? 0;
    m.tokens.total += u.totalTokenCount ?? 0;
    m.tokens.cached += u.cachedContentTokenCount ?? 0;
    m.tokens.thoughts += u.thoughtsTokenCount ?? 0;
  }

  apiError(model: string): void {
    const m = this.model(model);
    m.api.totalRequests++;
    m.api.totalErrors++;
  }

  tool(call: ToolCall): void {
    const ok = call.status === 'success';
    const ms = (call.endTime ?? Date.now()) - call.startTime;
    this.tools.totalCalls++;
    this.tools[ok ? 'totalSuccess' : 'totalFail']++;
    this.tools.totalDurationMs += ms;
    const b = (this.tools.byName[call.request.name] ??= { count: 0, success: 0, fail: 0, durationMs: 0 });
    b.count++;
    b[ok ? 'success' : 'fail']++;
    b.durationMs += ms;
  }

  json(): Record<string, unknown> {
    return { models: this.models, tools: this.tools, files: {} };
  }

  streamJson(): Record<string, unknown> {
    let input = 0;
    let output = 0;
    let total = 0;
    let cached = 0;
    for (const m of Object.values(this.models)) {
      input += m.tokens.prompt;
      output += m.tokens.candidates;
      total += m.tokens.total;
      cached += m.tokens.cached;
    }
    return {
      total_tokens: total,
      input_tokens: input,
      output_tokens: output,
      cached,
      input: input - cached,
      duration_ms: Date.now() - this.started,
      tool_calls: this.tools.totalCalls,
      models: this.models,
    };
  }
}

/** Error shape and exit code of each failure class. */
export const FAILURES = {
  auth: { type: 'FatalAuthenticationError', code: 41 },
  input: { type: 'FatalInputError', code: 42 },
  config: { type: 'FatalConfigError', code: 52 },
  turns: { type: 'FatalTurnLimitedError', code: 53 },
  cancelled: { type: 'FatalCancellationError', code: 130 },
  api: { type: 'ApiError', code: 1 },
  general: { type: 'Error', code: 1 },
} as const;

export type FailureKind = keyof typeof FAILURES;

/** The text a tool call failed with, for stderr and tool_result. */
export function toolErrorText(call: ToolCall): string | undefined {
  if (call.status === 'success') return undefined;
  return call.response?.error ?? (call.status === 'cancelled' ? 'cancelled' : 'failed');
}

/** What a successful call gave the model, as text. */
export function toolOutputText(call: ToolCall): string | undefined {
  for (const p of call.response?.responseParts ?? []) {
    const out = (p.functionResponse?.response as { output?: unknown } | undefined)?.output;
    if (typeof out === 'string') return out;
  }
  return typeof call.response?.resultDisplay === 'string' ? call.response.resultDisplay : undefined;
}
