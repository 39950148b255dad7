import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import type { ToolCall, ToolCallOutcome } from '../scheduler/types.js';

type Decisions = Record<ToolCallOutcome, number>;
const noDecisions = (): Decisions => ({ accept: 0, reject: 0, modify: 0, auto_accept: 0 });

/** Lines added and removed by an edit, from the unified diff the server displayed. */
function diffLines(display: unknown): { added: number; removed: number } {
  const diff = (display as { fileDiff?: unknown })?.fileDiff;
  let added = 0;
  let removed = 0;
  if (typeof diff !== 'string') return { added, removed };
  // A hunk's header says how many old and new lines follow, so a removed `--x` line is not taken for the
  // `---` header of the next file.
  let old = 0;
  let now = 0;
  for (const line of diff.split('\n')) {
    const head = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (head) {
      old = Number(head[1] ?? 1);
      now = Number(head[2] ?? 1);
    } else if (line.startsWith('-') && old > 0) {
      removed++;
      old--;
    } else if (line.startsWith('+') && now > 0) {
      added++;
      now--;
    } else if (line.startsWith(' ') && (old > 0 || now > 0)) {
      old--;
      now--;
    }
  }
  return { added, removed };
}

/** Per-model and per-tool counters for the json / stream-json result. */
export class RunStats {
  readonly started = Date.now();
  readonly models: Record<
    string,
    {
      api: { totalRequests: number; totalErrors: number; totalLatencyMs: number };
      tokens: {
        input: number;
        prompt: number;
        candidates: number;
        total: number;
        cached: number;
        thoughts: number;
        tool: number;
      };
    }
  > = {};
  readonly tools = {
    totalCalls: 0,
    totalSuccess: 0,
    totalFail: 0,
    totalDurationMs: 0,
    totalDecisions: noDecisions(),
    byName: {} as Record<
      string,
      { count: number; success: number; fail: number; durationMs: number; decisions: Decisions }
    >,
  };
  readonly files = { totalLinesAdded: 0, totalLinesRemoved: 0 };

  private model(name: string) {
    return (this.models[name] ??= {
      api: { totalRequests: 0, totalErrors: 0, totalLatencyMs: 0 },
      tokens: { input: 0, prompt: 0, candidates: 0, total: 0, cached: 0, thoughts: 0, tool: 0 },
    });
  }

  usage(model: string, u: GenerateContentResponseUsageMetadata, durationMs: number): void {
    const m = this.model(model);
    m.api.totalRequests++;
    m.api.totalLatencyMs += durationMs;
    m.tokens.prompt += u.promptTokenCount ?? 0;
    m.tokens.input += Math.max(0, (u.promptTokenCount ?? 0) - (u.cachedContentTokenCount ?? 0));
    m.tokens.candidates += u.candidatesTokenCount ?? 0;
    m.tokens.total += u.totalTokenCount ?? 0;
    m.tokens.cached += u.cachedContentTokenCount ?? 0;
    m.tokens.thoughts += u.thoughtsTokenCount ?? 0;
    m.tokens.tool += u.toolUsePromptTokenCount ?? 0;
  }

  /** Every model's tokens so far (the footer's count). */
  totalTokens(): number {
    return Object.values(this.models).reduce((n, m) => n + m.tokens.total, 0);
  }

  apiError(model: string): void {
    const m = this.model(model);
    m.api.totalRequests++;
    m.api.totalErrors++;
  }

  tool(call: ToolCall): void {
    const ok = call.status === 'success';
    // Time spent waiting for the user's answer is not the tool's.
    const ms = Math.max(0, (call.endTime ?? Date.now()) - call.startTime - (call.waitedMs ?? 0));
    this.tools.totalCalls++;
    this.tools[ok ? 'totalSuccess' : 'totalFail']++;
    this.tools.totalDurationMs += ms;
    const b = (this.tools.byName[call.request.name] ??= {
      count: 0,
      success: 0,
      fail: 0,
      durationMs: 0,
      decisions: noDecisions(),
    });
    b.count++;
    b[ok ? 'success' : 'fail']++;
    b.durationMs += ms;
    // Recorded by the scheduler as the call was decided; a call never up for a decision counts none.
    const decision = call.outcome;
    if (decision) {
      this.tools.totalDecisions[decision]++;
      b.decisions[decision]++;
    }
    if (ok) {
      const { added, removed } = diffLines(call.response?.resultDisplay);
      this.files.totalLinesAdded += added;
      this.files.totalLinesRemoved += removed;
    }
  }

  /** Per-server sampling (requests, denials, tokens), from the session's client requests once it has one. */
  sampling?: () => Record<string, unknown>;

  private samplingJson(): Record<string, unknown> | undefined {
    const s = this.sampling?.();
    return s && Object.keys(s).length ? s : undefined;
  }

  json(): Record<string, unknown> {
    const sampling = this.samplingJson();
    return { models: this.models, tools: this.tools, files: this.files, ...(sampling ? { sampling } : {}) };
  }

  /** stream-json's `result.stats`: snake_case totals and the same five counters per model. */
  streamJson(): Record<string, unknown> {
    const sum = { total_tokens: 0, input_tokens: 0, output_tokens: 0, cached: 0, input: 0 };
    const models: Record<string, typeof sum> = {};
    for (const [name, m] of Object.entries(this.models)) {
      const one = {
        total_tokens: m.tokens.total,
        input_tokens: m.tokens.prompt,
        output_tokens: m.tokens.candidates,
        cached: m.tokens.cached,
        input: m.tokens.input,
      };
      models[name] = one;
      for (const k of Object.keys(sum) as (keyof typeof sum)[]) sum[k] += one[k];
    }
    const sampling = this.samplingJson();
    return {
      ...sum,
      duration_ms: Date.now() - this.started,
      tool_calls: this.tools.totalCalls,
      models,
      ...(sampling ? { sampling } : {}),
    };
  }
}
