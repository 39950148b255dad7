import type { FunctionDeclaration } from '@google/genai';
import type { ServerState } from '../mcp/types.js';
import type { SchedulerEvent, ToolCall, ToolCallRequestInfo, ToolRef } from '../scheduler/types.js';

/**
 * The slice of the host runtime (host/runtime.ts) the model loop uses. Structural, so the loop depends
 * only on what it calls; `HostRuntime` satisfies it.
 */
export interface LoopEmitter {
  // biome-ignore lint/suspicious/noExplicitAny: EventEmitter's listener type; unknown[] would reject typed listeners.
  on(event: string, listener: (...args: any[]) => void): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  off(event: string, listener: (...args: any[]) => void): unknown;
}

export interface LoopScheduler extends LoopEmitter {
  schedule(requests: ToolCallRequestInfo[], signal: AbortSignal): Promise<ToolCall[]>;
}

/** The loop's view of the one tool type. */
export type LoopTool = Pick<ToolRef, 'exposedName' | 'serverAlias' | 'toolName' | 'readOnly' | 'builtIn' | 'trusted'>;

export interface LoopRegistry extends LoopEmitter {
  get(exposedName: string): LoopTool | undefined;
  list(): LoopTool[];
  /** Declarations of the registered tools, only those `include` accepts; `hint` ranks them when not all fit. */
  declarations(include?: (tool: LoopTool) => boolean, hint?: string): FunctionDeclaration[];
}

/** The policy questions the loop asks when choosing what to declare (host/policy/policy-engine.ts). */
export interface LoopPolicy {
  readonly interactive: boolean;
  isStaticallyDenied(tool: LoopTool): boolean;
}

/** The loop's view of the one server-state type. */
export type LoopServerState = Pick<ServerState, 'alias' | 'status' | 'instructions' | 'resources'>;

export interface LoopManager extends LoopEmitter {
  states(): LoopServerState[];
  whenSettled(): Promise<void>;
  /** Resolves once tool lists a server announced as changed have been re-read. */
  whenListsFresh?(): Promise<void>;
  readResource(alias: string, uri: string): Promise<{ contents: { uri?: string; text?: string }[] }>;
  /** A read an idle server may answer from the listing cache (`fromCache`: no subscription possible). */
  readResourceCached?(
    alias: string,
    uri: string,
  ): Promise<{ contents: { uri?: string; text?: string }[]; fromCache?: boolean }>;
  subscribeResource?(alias: string, uri: string): Promise<unknown>;
}

export interface LoopRuntime {
  scheduler: LoopScheduler;
  registry: LoopRegistry;
  manager: LoopManager;
  roots: string[];
  /** When given and the run is headless, tools policy always denies are neither declared nor named. */
  policy?: LoopPolicy;
}

export type { SchedulerEvent };
