import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentDefinition } from '../agents/agent-definition.js';
import type { ExecuteOptions } from '../scheduler/executor.js';
import type { PolicyTool } from '../scheduler/types.js';
import { HOST_TOOLS_ALIAS } from '../tools/tool-search.js';
import { agentFailure, agentResult, invokeAgentEntry } from '../tools/invoke-agent.js';
import { AgentRun } from './agent-run.js';
import type { ContentGenerator } from './content-generator.js';
import type { RetryConfig } from './gemini-chat.js';
import type { LoopRuntime } from './loop-runtime.js';
import type { UsageEventValue } from './events.js';

/**
 * Declares invoke_agent for a session that has agents. It lives with the session, not the runtime: a
 * subagent talks to the session's model client, which exists only once credentials are resolved.
 */
export interface AgentToolDeps {
  runtime: LoopRuntime & { agents: { agents: AgentDefinition[] } };
  generator: ContentGenerator;
  /** The model the session uses now. */
  sessionModel: () => string;
  retry?: RetryConfig;
  /** Where a subagent's model usage is counted with the session's. */
  onUsage?: (value: UsageEventValue) => void;
}

export function registerInvokeAgent(deps: AgentToolDeps): void {
  if (!deps.runtime.agents.agents.length) return;
  deps.runtime.registry.addHostTool(invokeAgentEntry(), (args, opts) => invokeAgent(deps, args, opts));
}

/**
 * The agent's name as a tool for policy to match. It counts as read-only: invoking an agent changes nothing
 * by itself (each call of its run is decided on its own), so only a rule that denies it stops the run.
 */
function agentAsTool(name: string): PolicyTool {
  return {
    exposedName: name,
    serverAlias: HOST_TOOLS_ALIAS,
    toolName: name,
    builtIn: true,
    readOnly: true,
    trusted: true,
  };
}

async function invokeAgent(
  deps: AgentToolDeps,
  args: Record<string, unknown>,
  opts: ExecuteOptions,
): Promise<CallToolResult> {
  const name = String(args.agent_name ?? '');
  const def = deps.runtime.agents.agents.find((a) => a.name === name);
  if (!def) return agentFailure(`Subagent '${name}' not found.`);
  // Policy rules may name an agent as if it were a tool (`toolName = "codebase_investigator"`), as in 0.61.
  const verdict = await deps.runtime.policy?.decide(agentAsTool(name), { args: { prompt: args.prompt } });
  if (verdict?.decision === 'deny') return agentFailure(verdict.message);
  const signal = opts.signal ?? new AbortController().signal;
  let steps = 0;
  const run = new AgentRun(def, {
    runtime: deps.runtime,
    generator: deps.generator,
    sessionModel: deps.sessionModel(),
    retry: deps.retry,
    signal,
    parentCallId: opts.callId ?? name,
    // Each sub-call becomes a line of the invoke_agent card while the agent works.
    onStep: (line) => opts.onProgress?.({ progress: ++steps, message: line }),
    onUsage: deps.onUsage,
  });
  try {
    const out = await run.run(String(args.prompt ?? ''));
    if (out.reason === 'ABORTED') throw new Error('Operation cancelled by user');
    return agentResult(def.name, out.reason, out.result, out.steps);
  } catch (err) {
    // A cancel ends the call as cancelled; any other failure is the model's to read (0.61's text).
    if (signal.aborted) throw err;
    return agentFailure(`Subagent '${def.name}' failed. Error: ${(err as Error).message}`);
  }
}
