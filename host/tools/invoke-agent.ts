import type { FunctionDeclaration } from '@google/genai';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import { type AgentDefinition, DEFAULT_OUTPUT } from '../agents/agent-definition.js';
import { toDeclaration } from './declarations.js';
import { hostToolEntry, type RegisteredTool } from './registered-tool.js';

/**
 * Gemini CLI 0.61's `invoke_agent`: the main model hands a task to a subagent by name. A host tool, since
 * the subagent is a nested model loop of this session (its chat, the session's scheduler, policy and
 * hooks), not a server's call. Its name, parameters and the text the model gets back are 0.61's, so a
 * recorded Gemini CLI session that delegated replays.
 */
export const INVOKE_AGENT = 'invoke_agent';
/** The nested loop's own tool: the only way a subagent finishes. */
export const COMPLETE_TASK = 'complete_task';

const SCHEMA = {
  type: 'object',
  properties: {
    agent_name: { type: 'string', description: 'Name of the subagent to invoke' },
    prompt: {
      type: 'string',
      description:
        'The COMPLETE query to send the subagent. MUST be comprehensive and detailed. Include all context, background, questions, and expected output format. Do NOT send brief or incomplete instructions.',
    },
  },
  required: ['agent_name', 'prompt'],
};

export function invokeAgentEntry(): RegisteredTool {
  return hostToolEntry(
    INVOKE_AGENT,
    'Invoke Subagent',
    'Invoke a subagent to perform a specific task or investigation.',
    SCHEMA,
  );
}

/** `complete_task`'s declaration for one agent: its `result` string, or its report's schema. */
export function completeTaskDeclaration(def: AgentDefinition): FunctionDeclaration {
  const out = def.output ?? DEFAULT_OUTPUT;
  const description = def.output
    ? 'Call this tool to submit your final answer and complete the task. This is the ONLY way to finish.'
    : 'Call this tool to submit your final findings and complete the task. This is the ONLY way to finish.';
  return toDeclaration(COMPLETE_TASK, description, {
    type: 'object',
    properties: { [out.name]: { ...out.schema, description: out.description } },
    required: [out.name],
  });
}

/**
 * What a `complete_task` call submits, or the error the subagent reads when it submitted nothing usable
 * (0.61's texts).
 */
export function submittedOutput(
  def: AgentDefinition,
  args: Record<string, unknown>,
): { output?: string; error?: string } {
  if (def.output) {
    const v = args[def.output.name];
    if (v === undefined || v === null)
      return { error: `Missing required argument '${def.output.name}' for completion.` };
    return { output: typeof v === 'string' ? v : JSON.stringify(v, null, 2) };
  }
  const v = args.result;
  if (v === undefined || v === null || (typeof v === 'string' && v.trim() === ''))
    return {
      error: 'Missing required "result" argument. You must provide your findings when calling complete_task.',
    };
  return { output: typeof v === 'string' ? v : JSON.stringify(v, null, 2) };
}

export type TerminateReason = 'GOAL' | 'MAX_TURNS' | 'TIMEOUT' | 'ERROR_NO_COMPLETE_TASK_CALL' | 'ABORTED' | 'ERROR';

/**
 * The parent model's answer, as 0.61 words it; the card shows the sub-calls above the result (the text
 * the user reads is `_meta` display, the model reads only the 0.61 text).
 */
export function agentResult(name: string, reason: TerminateReason, result: string, steps: string[]): CallToolResult {
  const text = `Subagent '${name}' finished.\nTermination Reason: ${reason}\nResult:\n${result}`;
  const display = [...steps, steps.length ? '' : undefined, `Termination Reason: ${reason}`, result]
    .filter((l) => l !== undefined)
    .join('\n');
  return { content: [{ type: 'text', text }], _meta: { [META.display]: display } };
}

/** A run that failed outright (the model could not be reached, an unknown agent): an error for the model. */
export function agentFailure(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}
