import type { ServerGeminiStreamEvent } from './events.js';

/** Identical consecutive tool calls (same name, same arguments) that count as a loop. */
export const TOOL_CALL_LOOP_THRESHOLD = 5;
/** Occurrences of one content chunk that count as a loop, when they sit close together. */
export const CONTENT_LOOP_THRESHOLD = 10;
export const CONTENT_CHUNK_SIZE = 50;
/** Repeats spread further apart than this on average are ordinary prose, not a stuck model. */
const MAX_AVERAGE_DISTANCE = CONTENT_CHUNK_SIZE * 5;
/** Only the newest text is analysed, which bounds the memory one long answer can use. */
const MAX_TRACKED_CHARS = 5000;

export interface LoopDetected {
  kind: 'tool_call' | 'content';
  message: string;
}

/** Arguments in a key-order-independent form, so `{a,b}` and `{b,a}` are the same call. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Watches one user message's stream for a model that is stuck: the same call over and over, or the same
 * text chunk repeated. Structured text (code blocks, tables, lists, headings) legitimately repeats, so
 * content is not analysed inside code fences and tracking restarts at those markers.
 */
export class LoopDetector {
  private lastCallKey?: string;
  private callRepeats = 0;
  private text = '';
  private analysedUpTo = 0;
  private chunkPositions = new Map<string, number[]>();
  private inCodeBlock = false;

  /** The loop, when this event completes one. */
  check(ev: ServerGeminiStreamEvent): LoopDetected | undefined {
    if (ev.type === 'tool_call_request') return this.checkCall(ev.value.name, ev.value.args);
    if (ev.type === 'content') return this.checkContent(ev.value);
    return undefined;
  }

  private checkCall(name: string, args: unknown): LoopDetected | undefined {
    this.resetContent();
    const key = `${name}:${stableJson(args)}`;
    this.callRepeats = key === this.lastCallKey ? this.callRepeats + 1 : 1;
    this.lastCallKey = key;
    if (this.callRepeats < TOOL_CALL_LOOP_THRESHOLD) return undefined;
    return {
      kind: 'tool_call',
      message: `Loop detected: the model called ${name} with the same arguments ${this.callRepeats} times in a row. The turn was stopped.`,
    };
  }

  private checkContent(delta: string): LoopDetected | undefined {
    for (const line of delta.split(/(?<=\n)/)) {
      const fences = (line.match(/```/g) ?? []).length;
      const structured = /^\s*(```|\||[-*+] |\d+\. |#{1,6} )/.test(line);
      if (fences % 2 === 1) this.inCodeBlock = !this.inCodeBlock;
      if (fences > 0 || structured) {
        this.resetContent();
        continue;
      }
      if (this.inCodeBlock) continue;
      this.text += line;
      const found = this.analyse();
      if (found) return found;
    }
    return undefined;
  }

  private analyse(): LoopDetected | undefined {
    if (this.text.length > MAX_TRACKED_CHARS) {
      const cut = this.text.length - MAX_TRACKED_CHARS;
      this.text = this.text.slice(cut);
      this.analysedUpTo = Math.max(0, this.analysedUpTo - cut);
      for (const [chunk, positions] of this.chunkPositions) {
        const kept = positions.map((p) => p - cut).filter((p) => p >= 0);
        if (kept.length) this.chunkPositions.set(chunk, kept);
        else this.chunkPositions.delete(chunk);
      }
    }
    for (; this.analysedUpTo + CONTENT_CHUNK_SIZE <= this.text.length; this.analysedUpTo++) {
      const at = this.analysedUpTo;
      const chunk = this.text.slice(at, at + CONTENT_CHUNK_SIZE);
      const positions = this.chunkPositions.get(chunk) ?? [];
      positions.push(at);
      this.chunkPositions.set(chunk, positions);
      if (positions.length < CONTENT_LOOP_THRESHOLD) continue;
      const recent = positions.slice(-CONTENT_LOOP_THRESHOLD);
      const average = (recent[recent.length - 1]! - recent[0]!) / (recent.length - 1);
      if (average <= MAX_AVERAGE_DISTANCE && this.periodsRepeat(recent)) {
        this.analysedUpTo++;
        return {
          kind: 'content',
          message: 'Loop detected: the model kept repeating the same text. The turn was stopped.',
        };
      }
    }
    return undefined;
  }

  /**
   * A loop repeats whole stretches: the text from one occurrence of the chunk to the next (its period) is
   * the same each time, give or take a couple of variants. Distinct periods mean distinct items that
   * share a phrase ("Step 1 of the build …", "Step 2 of the build …"): a list, not a loop.
   */
  private periodsRepeat(recent: number[]): boolean {
    const periods = new Set<string>();
    for (let i = 1; i < recent.length; i++) periods.add(this.text.slice(recent[i - 1], recent[i]));
    return periods.size <= CONTENT_LOOP_THRESHOLD / 2;
  }

  private resetContent(): void {
    this.text = '';
    this.analysedUpTo = 0;
    this.chunkPositions.clear();
  }
}
