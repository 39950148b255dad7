import type { Part } from '@google/genai';
import type { ServerGeminiStreamEvent } from '../core/events.js';
import type { HostRuntime } from '../core/runtime.js';

/**
 * What the terminal UI uses of the one runtime type (host/core/runtime.ts): a `Pick`, so the chat and the
 * runtime cannot drift apart. Type-only: the UI still loads the runtime lazily.
 */
export type UiRuntime = Pick<
  HostRuntime,
  | 'manager'
  | 'clientRequests'
  | 'registry'
  | 'scheduler'
  | 'roots'
  | 'projectTempDir'
  | 'notices'
  | 'sandbox'
  | 'setApprovalMode'
  | 'getApprovalMode'
  | 'close'
  | 'commands'
  | 'skills'
  | 'reloadSkills'
  | 'extensions'
  | 'extensionContext'
  | 'policy'
  | 'agents'
  | 'reloadAgents'
  | 'acknowledgeAgents'
  | 'toggleAgent'
> &
  Partial<Pick<HostRuntime, 'hooks' | 'policies'>>;

export interface UiChatClient {
  sendMessageStream(
    parts: Part[] | string,
    signal: AbortSignal,
    promptId: string,
  ): AsyncIterable<ServerGeminiStreamEvent>;
}
