import type { ElicitRequest, ElicitResult, Prompt, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedServerConfig } from '../config/servers.js';

export type ServerStatus = 'connecting' | 'connected' | 'disconnected' | 'failed';

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
}

export interface CallOptions {
  signal?: AbortSignal;
  meta?: Record<string, unknown>;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
  timeoutMs?: number;
}

export type ElicitationHandler = (alias: string, params: ElicitRequest['params'], signal: AbortSignal) => Promise<ElicitResult>;
