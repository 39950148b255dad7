import type { Prompt, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import type { ElicitationHandler, ExecuteOptions } from '../scheduler/executor.js';

export type { ElicitationHandler };

/** `idle`: not started; its tools come from the listing cache and it starts when first used. */
export type ServerStatus = 'idle' | 'connecting' | 'connected' | 'disconnected' | 'failed';

export interface ServerState {
  alias: string;
  config: ResolvedServerConfig;
  status: ServerStatus;
  error?: string;
  stderrTail: string;
  /** MCP Tool objects after includeTools / excludeTools. */
  tools: Tool[];
  instructions?: string;
  prompts: Prompt[];
  resources: Resource[];
  restarts: number;
  /** The transport of the live connection (`auto` resolves to http or sse). */
  connectedVia?: 'stdio' | 'http' | 'sse';
  /** The stdio child's pid while connected. */
  pid?: number;
  /** The replica of a remote server that answered last, when it names one (`Mcp-Replica-Id`). */
  replicaId?: string;
  /** Tools, prompts and resources come from the listing cache (the server has not run this session). */
  fromCache?: boolean;
}

/** The scheduler's call options plus a per-call timeout override. */
export interface CallOptions extends ExecuteOptions {
  timeoutMs?: number;
}
