import type { Part } from '@google/genai';
import type { ServerGeminiStreamEvent } from '../core/events.js';
import type { ServerState } from '../mcp/types.js';
import type { ApprovalMode, SchedulerEvent, ToolCall, ToolCallRequestInfo } from '../scheduler/types.js';

/**
 * The slice of the host runtime the terminal UI uses, stated structurally so the views and slash
 * commands can be exercised with any object of that shape.
 */
/** The chat's view of the one server-state type. */
export type UiServerState = Pick<
  ServerState,
  'alias' | 'status' | 'error' | 'stderrTail' | 'tools' | 'resources' | 'prompts' | 'config'
>;

export interface UiManager {
  states(): UiServerState[];
  restart(alias: string): Promise<void>;
  getPrompt(
    alias: string,
    name: string,
    args: Record<string, string>,
  ): Promise<{ messages: { role: string; content: unknown }[] }>;
  readResource(alias: string, uri: string): Promise<{ contents: { text?: string; uri?: string }[] }>;
  // biome-ignore lint/suspicious/noExplicitAny: EventEmitter's listener type; unknown[] would reject typed listeners.
  on(event: string, fn: (...args: any[]) => void): unknown;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  off(event: string, fn: (...args: any[]) => void): unknown;
}

export interface UiRuntime {
  manager: UiManager;
  registry: {
    list(): { exposedName: string; description: string; serverAlias: string }[];
    on(e: string, fn: () => void): unknown;
  };
  scheduler: {
    on(e: 'event', fn: (ev: SchedulerEvent) => void): unknown;
    schedule(requests: ToolCallRequestInfo[], signal: AbortSignal): Promise<ToolCall[]>;
  };
  projectTempDir: string;
  setApprovalMode(m: ApprovalMode): void;
  getApprovalMode(): ApprovalMode;
  close(): Promise<void>;
}

export interface UiChatClient {
  sendMessageStream(
    parts: Part[] | string,
    signal: AbortSignal,
    promptId: string,
  ): AsyncIterable<ServerGeminiStreamEvent>;
}
