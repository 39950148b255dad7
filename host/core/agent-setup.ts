import type { AgentDefinition } from '../agents/agent-definition.js';
import { COMPLETE_TASK, INVOKE_AGENT, type TerminateReason } from '../tools/invoke-agent.js';
import { patternNamesTool } from '../tools/naming.js';
import type { RegisteredTool } from '../tools/registry.js';
import { HOST_TOOLS_ALIAS } from '../tools/tool-search.js';

/** How long the last turn after a limit may take (0.61's grace period). */
export const GRACE_PERIOD_MS = 60_000;

/**
 * Host tools a subagent never gets: another agent (no recursion, as in 0.61, even under `*`), the
 * session's topic note, and search_tools (an agent's few tools are all declared).
 */
const NEVER = new Set([INVOKE_AGENT, 'update_topic', 'search_tools']);

/**
 * The session's tools this agent may use: every tool when its definition lists none (0.61: it inherits
 * them), else those its names cover — `*`, `mcp_*` (every tool of a server that is not built in),
 * `mcp_<server>_*`, a Gemini CLI or Claude Code name of a built-in (`read_file`, `Read`), `server__tool`.
 */
export function agentTools(def: AgentDefinition, all: RegisteredTool[]): RegisteredTool[] {
  const candidates = all.filter((t) => !(t.serverAlias === HOST_TOOLS_ALIAS && NEVER.has(t.toolName)));
  const names = def.tools;
  if (!names) return candidates;
  return candidates.filter((t) =>
    names.some((n) => {
      if (n === '*') return true;
      if (n === 'mcp_*') return !t.builtIn && t.serverAlias !== HOST_TOOLS_ALIAS;
      return patternNamesTool(n, t);
    }),
  );
}

/** `${name}` placeholders filled from `inputs`; an unknown placeholder is left as written. */
export function fillTemplate(template: string, inputs: Record<string, string>): string {
  return template.replace(/\$\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(inputs, key) ? inputs[key]! : whole));
}

/** The agent's system prompt with 0.61's environment and rules for a non-interactive subagent. */
export function agentSystemPrompt(def: AgentDefinition, roots: string[], date = new Date()): string {
  const inputs = { today: date.toLocaleDateString(), activeModel: def.model };
  const dirs = roots.map((r) => `  - ${r}`).join('\n');
  const finish = def.output
    ? `* When you have completed your task, you MUST call the \`${COMPLETE_TASK}\` tool with your structured output.`
    : `* When you have completed your task, you MUST call the \`${COMPLETE_TASK}\` tool.
* You MUST include your final findings in the "result" parameter. This is how you return the necessary results for the task to be marked complete.
* Ensure your findings are comprehensive and follow any specific formatting requirements provided in your instructions.`;
  return `${fillTemplate(def.systemPrompt, inputs)}

# Environment Context
- **Workspace Directories:**
${dirs}
Important Rules:
* You are running in a non-interactive mode. You CANNOT ask the user for input or clarification.
* Work systematically using available tools to complete your task.
* Always use absolute paths for file operations. Construct them using the provided "Environment Context".
* If a tool call is rejected by the user, acknowledge the rejection, rethink your strategy, and try a different approach. Do not repeatedly attempt the same rejected operation.
${finish}
* Do not call any other tools in the same turn as \`${COMPLETE_TASK}\`.
* This is the ONLY way to complete your mission. If you stop calling tools without calling this, you have failed.`;
}

/** The message of the last turn after a limit (0.61's words). */
export function finalWarning(reason: TerminateReason): string {
  const why =
    reason === 'TIMEOUT'
      ? 'You have exceeded the time limit.'
      : reason === 'MAX_TURNS'
        ? 'You have exceeded the maximum number of turns.'
        : 'You have stopped calling tools without finishing.';
  return `${why} You have one final chance to complete the task with a short grace period. You MUST call \`${COMPLETE_TASK}\` immediately with your best answer and explain that your investigation was interrupted. Do not call any other tools.`;
}
