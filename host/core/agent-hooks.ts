import type { Part } from '@google/genai';
import type { HookSystem } from '../hooks/hook-system.js';
import { hookContext } from '../scheduler/hook-steps.js';

/** The hooks the model loop fires; the runtime's hook system, when there is one. */
export type AgentHooks = Pick<HookSystem, 'fire' | 'has'>;

export type BeforeAgentResult =
  | { kind: 'go'; parts: Part[] }
  /** `continue: false`: the message stays in history, nothing is sent. */
  | { kind: 'stopped'; reason: string }
  /** A block: the message is dropped. */
  | { kind: 'blocked'; reason: string };

const textOf = (parts: Part[]) =>
  parts
    .map((p) => p.text ?? '')
    .join('')
    .trim();

/**
 * BeforeAgent (Claude Code: UserPromptSubmit), once per user message before anything is sent: a hook may
 * block the message, stop the loop, or add context the model gets with this message only.
 */
export async function beforeAgent(
  hooks: AgentHooks | undefined,
  parts: Part[],
  signal: AbortSignal,
): Promise<BeforeAgentResult> {
  if (!hooks?.has('BeforeAgent') || parts.some((p) => p.functionResponse)) return { kind: 'go', parts };
  const o = await hooks.fire('BeforeAgent', { prompt: textOf(parts) }, {}, signal);
  if (o.stopped !== undefined) return { kind: 'stopped', reason: o.stopped };
  if (o.blocked !== undefined) return { kind: 'blocked', reason: o.blocked };
  if (o.context) return { kind: 'go', parts: [...parts, { text: hookContext(o.context) }] };
  return { kind: 'go', parts };
}

export type AfterAgentResult =
  | { kind: 'done' }
  | { kind: 'stopped'; reason: string; clearContext: boolean }
  /** A block: the answer is rejected and the reason goes back to the model as a new prompt. */
  | { kind: 'retry'; reason: string; clearContext: boolean };

/** AfterAgent (Claude Code: Stop), when the model gave its final answer to a user message. */
export async function afterAgent(
  hooks: AgentHooks | undefined,
  prompt: string,
  response: string,
  retrying: boolean,
  signal: AbortSignal,
): Promise<AfterAgentResult> {
  if (!hooks?.has('AfterAgent')) return { kind: 'done' };
  const o = await hooks.fire(
    'AfterAgent',
    { prompt, prompt_response: response || '[no response text]', stop_hook_active: retrying },
    {},
    signal,
  );
  const clearContext = o.clearContext === true;
  if (o.stopped !== undefined) return { kind: 'stopped', reason: o.stopped, clearContext };
  if (o.blocked !== undefined) return { kind: 'retry', reason: o.blocked, clearContext };
  return { kind: 'done' };
}
