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
  | { kind: 'send'; parts: Part[]; display: string }
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
}

/** Custom command → the caller's built-ins → MCP prompt → `@path` check → `@` expansion. */
export async function preparePrompt(text: string, deps: PrepareDeps): Promise<PreparedPrompt> {
  const { runtime } = deps;
  if (text.trimStart().startsWith('/')) {
    const { expandTypedCommand } = await import('../commands/run-custom-command.js');
    const calls: ToolCall[] = [];
    const custom = await expandTypedCommand(runtime, runtime.commands.commands, text, {
      signal: deps.signal,
      promptId: deps.promptId,
      warn: deps.warn,
      onCall: (call) => calls.push(call),
    });
    for (const call of calls) await deps.onCall(call);
    if (custom) return custom.ok ? { kind: 'send', parts: custom.parts, display: '' } : error(custom.message);
    const shown = await deps.builtIn?.(text);
    if (shown !== undefined) return { kind: 'show', text: shown };
  }
  // `/prompt-name arg=value` runs that MCP prompt; its messages are what the model gets.
  const { expandPromptCommand } = await import('./mcp-prompt-command.js');
  const mcpPrompt = await expandPromptCommand(runtime.manager, text);
  if (mcpPrompt) {
    if (!mcpPrompt.ok) return error(mcpPrompt.error);
    return { kind: 'send', parts: mcpPrompt.parts, display: '' };
  }
  const { findPathProblems, describePathProblems } = await import('./at-path-check.js');
  const aliases = runtime.manager.states().map((s) => s.alias);
  const problems = findPathProblems(text, runtime.roots, aliases);
  if (problems.length) return error(describePathProblems(problems));
  const { processAtCommands } = await import('./at-command.js');
  const prepared = await processAtCommands(text, {
    runtime,
    signal: deps.signal,
    promptId: deps.promptId,
    onWarning: deps.warn,
  });
  if (prepared.error) return error(prepared.error);
  for (const call of prepared.calls) await deps.onCall(call);
  return { kind: 'send', parts: prepared.skipModel ? [] : prepared.parts, display: prepared.display };
}

const error = (message: string): PreparedPrompt => ({ kind: 'error', message });
