import type { Part } from '@google/genai';
import type { ServerGeminiStreamEvent } from '../core/events.js';
import type { ApprovalMode, SchedulerEvent, ToolCall, ToolCallRequestInfo } from '../scheduler/types.js';

/**
 * The slice of the host runtime the terminal UI uses, stated structurally so the views and slash
 * commands can be exercised with any object of that shape.
 */
export interface UiServerState {
  alias: string;
  status: 'connecting' | 'connected' | 'disconnected' | 'failed' | string;
  error?: string;
  stderrTail?: string;
  tools: { name: string; description?: string }[];
  resources?: { uri: string }[];
  prompts: { name: string; description?: string; arguments?: { name: string; description?: string; required?: boolean }[] }[];
  config?: { builtIn?: boolean; transport?: string; url?: string; command?: string };
}

export interface UiManager {
  states(): UiServerState[];
  restart(alias: string): Promise<void>;
  getPrompt(alias: string, name: string, args: Record<string, string>): Promise<{ messages: { role: string; content: unknown }[] }>;
  readResource(alias: string, uri: string): Promise<{ contents: { text?: string; uri?: string }[] }>;
  on(event: string, fn: (...args: any[]) => void): unknown;
  off(event: string, fn: (...args: any[]) => void): unknown;
}

export interface UiRuntime {
  manager: UiManager;
  registry: { list(): { exposedName: string; description: string; serverAlias: string }[]; on(e: string, fn: () => void): unknown };
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
  sendMessageStream(parts: Part[] | string, signal: AbortSignal, promptId: string): AsyncIterable<ServerGeminiStreamEvent>;
}
