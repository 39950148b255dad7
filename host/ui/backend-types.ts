import type { Part } from '@google/genai';
import type { ServerGeminiStreamEvent } from '../core/events.js';
import type { HostRuntime } from '../runtime.js';

/**
 * What the terminal UI uses of the one runtime type (host/runtime.ts): a `Pick`, so the chat and the
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
  | 'setApprovalMode'
  | 'getApprovalMode'
  | 'close'
>;

export interface UiChatClient {
  sendMessageStream(
    parts: Part[] | string,
    signal: AbortSignal,
    promptId: string,
  ): AsyncIterable<ServerGeminiStreamEvent>;
}
