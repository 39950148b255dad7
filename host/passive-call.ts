import { randomUUID } from 'node:crypto';
import { unwrapUntrusted } from '../protocol/tool-result.js';
import type { ToolLookup } from './scheduler/executor.js';
import type { ToolScheduler } from './scheduler/scheduler.js';
import type { ToolCall, ToolRef } from './scheduler/types.js';

/**
 * Passive tool calls: the user types `@server__tool({...})` or `@tool({...})` and the
 * host runs it through the same scheduler; the result is shown, not sent to the model.
 */
export interface PassiveCallSyntax {
  /** The name as typed (exposed or bare). */
  name: string;
  /** Text inside the parentheses, trimmed. */
  argText: string;
  /** Offsets of `@…)` in the input. */
  start: number;
  end: number;
}

const NAME = /[A-Za-z_][A-Za-z0-9_.:-]*/y;
const CLOSERS: Record<string, string> = { '(': ')', '{': '}', '[': ']' };

/** Every `@name(...)` in the text; `@` must start the text or follow whitespace (not an e-mail). */
export function findPassiveCalls(text: string): PassiveCallSyntax[] {
  const found: PassiveCallSyntax[] = [];
  for (let i = text.indexOf('@'); i !== -1; i = text.indexOf('@', i + 1)) {
    if (i > 0 && !/\s/.test(text[i - 1])) continue;
    NAME.lastIndex = i + 1;
    const m = NAME.exec(text);
    if (!m || text[NAME.lastIndex] !== '(') continue;
    const close = matchingParen(text, NAME.lastIndex);
    if (close === -1) continue;
    found.push({ name: m[0], argText: text.slice(NAME.lastIndex + 1, close).trim(), start: i, end: close + 1 });
    i = close;
  }
  return found;
}

/** Index of the `)` closing the `(` at `open`, skipping quoted strings and nested brackets. */
function matchingParen(text: string, open: number): number {
  const stack: string[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (CLOSERS[c]) stack.push(CLOSERS[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

export type Resolved<T> = { ok: true; value: T } | { ok: false; error: string };

/** Exposed names win; a bare tool name resolves when exactly one server has it. */
export function resolvePassiveTool(name: string, tools: ToolLookup): Resolved<ToolRef> {
  const exact = tools.get(name);
  if (exact) return { ok: true, value: exact };
  const matches = tools.list().filter((t) => t.toolName === name);
  if (matches.length === 1) return { ok: true, value: matches[0] };
  if (matches.length > 1) {
    return { ok: false, error: `"${name}" is ambiguous; use one of: ${matches.map((t) => t.exposedName).join(', ')}` };
  }
  return { ok: false, error: `Tool "${name}" not found.` };
}

/**
 * Arguments from the parenthesised text: a JSON object, nothing (`{}`), or — as in
 * `@read_file(./src/main.ts)` — a plain value for a tool with exactly one required string parameter.
 */
export function parsePassiveArgs(argText: string, tool: ToolRef): Resolved<Record<string, unknown>> {
  if (argText === '') return { ok: true, value: {} };
  if (argText.startsWith('{')) {
    try {
      const v = JSON.parse(argText) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) return { ok: true, value: v as Record<string, unknown> };
    } catch (err) {
      return { ok: false, error: `Arguments of ${tool.exposedName} are not valid JSON: ${(err as Error).message}` };
    }
    return { ok: false, error: `Arguments of ${tool.exposedName} must be a JSON object.` };
  }
  const props = (tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : [];
  const candidates = required.length > 0 ? required : Object.keys(props);
  if (candidates.length === 1 && props[candidates[0]]?.type === 'string') {
    const quoted = /^(["'])(.*)\1$/s.exec(argText);
    return { ok: true, value: { [candidates[0]]: quoted ? quoted[2] : argText } };
  }
  return {
    ok: false,
    error: `Arguments of ${tool.exposedName} must be a JSON object, e.g. @${tool.exposedName}({...}).`,
  };
}

export interface PassiveCallResult {
  ok: boolean;
  /** What to show the user: the tool's display, or the error. */
  display: string;
  call?: ToolCall;
}

/** Runs the first passive call in `input` (client-initiated) and returns what to display. */
export async function runPassiveCall(
  deps: { scheduler: ToolScheduler; registry: ToolLookup },
  input: string,
  signal: AbortSignal,
  opts: { promptId?: string } = {},
): Promise<PassiveCallResult> {
  const [syntax] = findPassiveCalls(input);
  if (!syntax) return { ok: false, display: 'No tool call found; write @server__tool({...}).' };
  const tool = resolvePassiveTool(syntax.name, deps.registry);
  if (!tool.ok) return { ok: false, display: tool.error };
  const args = parsePassiveArgs(syntax.argText, tool.value);
  if (!args.ok) return { ok: false, display: args.error };
  const [call] = await deps.scheduler.schedule(
    [
      {
        callId: `passive-${randomUUID()}`,
        name: tool.value.exposedName,
        args: args.value,
        isClientInitiated: true,
        promptId: opts.promptId ?? 'passive',
      },
    ],
    signal,
  );
  return { ok: call.status === 'success', display: displayOf(call), call };
}

/** The user-facing text of a finished call. */
export function displayOf(call: ToolCall): string {
  const r = call.response;
  if (!r) return '';
  if (call.status !== 'success') return r.error ?? String(r.resultDisplay ?? '');
  const d = r.resultDisplay;
  if (typeof d === 'string' && d !== '') return d;
  if (d && typeof d === 'object') return d.fileDiff;
  return outputOf(call) ?? '';
}

/** The `output` (or `error`) text the model read, without the fence only the model needs. */
export function outputOf(call: ToolCall): string | undefined {
  return call.response ? unwrapUntrusted(call.response.responseText) : undefined;
}
