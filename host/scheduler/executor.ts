import type { CallToolResult, ElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRef } from './types.js';

/**
 * The narrow views of the registry and the client manager the scheduler needs, so that it can be tested
 * and reasoned about on its own; `ToolRegistry` and `McpClientManager` satisfy them structurally.
 */
export interface ToolLookup {
  get(exposedName: string): ToolRef | undefined;
  list(): ToolRef[];
}

export type ElicitationHandler = (
  alias: string,
  params: ElicitRequest['params'],
  signal: AbortSignal,
) => Promise<ElicitResult>;

export interface ExecuteOptions {
  signal?: AbortSignal;
  /** The scheduler's id of the call (a host tool that runs calls of its own names them after it). */
  callId?: string;
  meta?: Record<string, unknown>;
  onProgress?: (p: { progress: number; total?: number; message?: string; _meta?: Record<string, unknown> }) => void;
}

/** Something that executes a call on a server (the client manager). */
export interface CallExecutor {
  callTool(
    alias: string,
    toolName: string,
    args: Record<string, unknown>,
    opts?: ExecuteOptions,
  ): Promise<CallToolResult>;
  setElicitationHandler?(handler: ElicitationHandler): void;
  /** Starts the server behind a call that is about to be checked, if it is idle; faults show on the call. */
  prepare?(alias: string): void;
}
