import type { Part } from '@google/genai';
import type { ToolCall } from '../scheduler/types.js';
import type { HostRuntime } from './runtime.js';

/**
 * What a typed prompt becomes before the model sees it, the same for headless and the editor (ACP):
 * `send` the parts after showing `display` (no parts: the prompt was only `@server__tool(…)` calls, whose
 * output `display` is, and the model gets nothing), `show` a built-in's output, or an `error` (bad input:
 * nothing was sent).
 */
export type PreparedPrompt =
  | { kind: 'send'; parts: Part[]; display: string; typed?: string }
  | { kind: 'show'; text: string }
  | { kind: 'error'; message: string };

export interface PrepareDeps {
  runtime: HostRuntime;
  signal: AbortSignal;
  promptId: string;
  /** A note for the user (a file left out, a resource that could not be read); the prompt still goes. */
  warn(message: string): void;
  /** A client-initiated call that ran (a custom command's `!{…}`, `@tool(…)`, the read for `@path`). */
  onCall(call: ToolCall): void | Promise<void>;
  /** The caller's own `/name` built-ins, tried after custom commands: their output, or undefined. */
  builtIn?(text: string): Promise<string | undefined>;
  /**
   * Piped stdin, sent before the typed text as is. It is data (a diff's `@@`, a log's `user@host`), so it
   * is never scanned for `@` references; the typed text is.
   */
  piped?: string;
}

/** Custom command → the caller's built-ins → MCP prompt → `@path` check → `@` expansion. */
export async function preparePrompt(typed: string, deps: PrepareDeps): Promise<PreparedPrompt> {
  const { runtime } = deps;
  const piped = deps.piped ?? '';
  // Commands read the whole input, stdin first, as Gemini CLI joins them.
  const text = [piped, typed].filter(Boolean).join('\n\n');
  if (text.trimStart().startsWith('/')) {
    const { expandTypedCommand } = await import('../custom-commands/run-custom-command.js');
    const calls: ToolCall[] = [];
    const custom = await expandTypedCommand(runtime, runtime.commands.commands, text, {
      signal: deps.signal,
      promptId: deps.promptId,
      warn: deps.warn,
      onCall: (call) => calls.push(call),
    });
    for (const call of calls) await deps.onCall(call);
    if (custom)
      return custom.ok ? { kind: 'send', parts: custom.parts, display: '', typed: text.trim() } : error(custom.message);
    const shown = await deps.builtIn?.(text);
    if (shown !== undefined) return { kind: 'show', text: shown };
  }
  // `/prompt-name arg=value` runs that MCP prompt; its messages are what the model gets.
  const { expandPromptCommand } = await import('./mcp-prompt-command.js');
  const mcpPrompt = await expandPromptCommand(runtime.manager, text);
  if (mcpPrompt) {
    if (!mcpPrompt.ok) return error(mcpPrompt.error);
    return { kind: 'send', parts: mcpPrompt.parts, display: '', typed: text.trim() };
  }
  // Only piped text: data, sent as is.
  if (!typed.trim()) return { kind: 'send', parts: text.trim() ? [{ text }] : [], display: '' };
  const { findPathProblems, describePathProblems } = await import('./at-path-check.js');
  const aliases = runtime.manager.states().map((s) => s.alias);
  const problems = findPathProblems(typed, runtime.roots, aliases, runtime.projectTempDir);
  if (problems.length) return error(describePathProblems(problems));
  const { processAtCommands } = await import('./at-command.js');
  const prepared = await processAtCommands(typed, {
    runtime,
    signal: deps.signal,
    promptId: deps.promptId,
    onWarning: deps.warn,
  });
  if (prepared.error) return error(prepared.error);
  for (const call of prepared.calls) await deps.onCall(call);
  const parts = prepared.skipModel ? [] : prepared.parts;
  return { kind: 'send', parts: piped ? withPiped(piped, parts) : parts, display: prepared.display };
}

/** The piped text goes first, in the same text part as the typed text (or alone when that was all calls). */
function withPiped(piped: string, parts: Part[]): Part[] {
  const [first, ...rest] = parts;
  if (first?.text === undefined) return [{ text: piped }, ...parts];
  return [{ text: `${piped}\n\n${first.text}` }, ...rest];
}

const error = (message: string): PreparedPrompt => ({ kind: 'error', message });
