import type { BeforeToolHookResult, PolicyInput, ToolRef } from './types.js';

/** The errorType of a call a hook ended with `continue: false`: the model loop stops after this batch. */
export const STOP_EXECUTION = 'stop_execution';

export const stoppedByHook = (reason: string) => `Agent execution stopped by hook: ${reason}`;

/** What BeforeTool hooks mean for a call: it ends here, or it goes on (maybe with new arguments) to policy. */
export type BeforeToolStep =
  | { end: { text: string; errorType: string } }
  | { hook?: PolicyInput['hook']; args?: Record<string, unknown>; modified?: string[] };

/**
 * Reads the hooks' answer: a stop ends the call (and the loop); a block or ask goes into the one policy
 * decision; a rewritten input is turned into the tool's spelling and validated again.
 */
export function beforeToolStep(
  r: BeforeToolHookResult,
  tool: ToolRef,
  normalize: ((tool: ToolRef, args: Record<string, unknown>) => Record<string, unknown>) | undefined,
  validate: (schema: Record<string, unknown>, args: unknown) => string | undefined,
): BeforeToolStep {
  if (r.stopped !== undefined) return { end: { text: stoppedByHook(r.stopped), errorType: STOP_EXECUTION } };
  if (r.blocked !== undefined) return { hook: { decision: 'deny', reason: r.blocked } };
  let args: Record<string, unknown> | undefined;
  if (r.updatedInput) {
    args = normalize?.(tool, r.updatedInput) ?? r.updatedInput;
    const invalid = validate(tool.inputSchema, args);
    if (invalid)
      return {
        end: {
          text: `Tool parameter modification by hook failed validation: ${invalid}`,
          errorType: 'invalid_tool_params',
        },
      };
  }
  const changed = args ? { args, modified: r.modifiedKeys ?? Object.keys(r.updatedInput!) } : {};
  if (r.ask) {
    const message = r.askReason ? { message: r.askReason } : {};
    return { ...changed, hook: { decision: 'ask', reason: 'a BeforeTool hook asked for confirmation', ...message } };
  }
  if (r.allowed) return { ...changed, hook: { decision: 'allow', reason: 'a PreToolUse hook allowed it' } };
  return changed;
}

/**
 * Hook text for the model, inside the host's own `<hook_context>` tag. Every hook's text goes through here
 * (Gemini CLI's and Claude Code's additionalContext, Claude's plain stdout), escaped so that it cannot
 * close the tag, or open one of the host's, whatever the hook prints.
 */
export function hookContext(text: string): string {
  return `<hook_context>${text.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</hook_context>`;
}

/** What hooks add to a result for the model: that they rewrote the input, and their additionalContext. */
export function hookNotes(modified: string[] | undefined, context: string | undefined): string {
  let out = '';
  if (modified?.length)
    out += `\n\n[System] Tool input parameters (${modified.join(', ')}) were modified by a hook before execution.`;
  if (context) out += `\n\n${hookContext(context)}`;
  return out;
}
