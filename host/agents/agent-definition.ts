/**
 * A subagent as the host runs it: Gemini CLI 0.61's local agent definition (an `.md` file's front matter
 * and body, or a built-in), reduced to what the nested loop needs.
 */

/** Where a definition came from (`/agents` shows it). */
export type AgentSource = 'built-in' | 'user' | 'project' | 'extension';

/** What `complete_task` takes: one named argument, a string (`result`) or an object (a report). */
export interface AgentOutput {
  name: string;
  description: string;
  /** JSON Schema of the argument. */
  schema: Record<string, unknown>;
}

export interface AgentDefinition {
  /** The slug `invoke_agent`'s `agent_name` names. */
  name: string;
  displayName?: string;
  description: string;
  /** The agent's system prompt (the file's body); `${input}` placeholders are filled in. */
  systemPrompt: string;
  /** The first user message; `${<input>}` is the prompt the parent sent. */
  query: string;
  /** The name the parent's prompt goes under (`query` for file agents, `objective` for the investigator). */
  inputName: string;
  /** `inherit` (the session's model) or a model name or alias. */
  model: string;
  temperature?: number;
  /** Tool names as people write them (`read_file`, `mcp_server_*`, `*`); absent: every tool of the session. */
  tools?: string[];
  maxTurns: number;
  timeoutMinutes: number;
  /** `complete_task`'s argument when not the default `result` string. */
  output?: AgentOutput;
  source: AgentSource;
  /** The definition file, for file agents. */
  file?: string;
  /** sha256 of the file's text: a project agent is acknowledged for exactly this content. */
  hash?: string;
}

/** Gemini CLI 0.61's limits for an agent that does not set its own. */
export const DEFAULT_MAX_TURNS = 30;
export const DEFAULT_MAX_TIME_MINUTES = 10;

/** `complete_task`'s argument for an agent without an output schema. */
export const DEFAULT_OUTPUT: AgentOutput = {
  name: 'result',
  description:
    'Your final results or findings to return to the orchestrator. Ensure this is comprehensive and follows any formatting requested in your instructions.',
  schema: { type: 'string' },
};
