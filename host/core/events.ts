import type { FinishReason, GenerateContentResponseUsageMetadata } from '@google/genai';
import type { ToolCall, ToolCallRequestInfo } from '../scheduler/types.js';

/**
 * What GeminiClient.sendMessageStream yields; the terminal UI and the headless runner consume it.
 * The `type` strings are upstream's `GeminiEventType` literals where upstream has one.
 */
export const GeminiEventType = {
  Content: 'content',
  Thought: 'thought',
  ToolCallRequest: 'tool_call_request',
  ToolCallUpdate: 'tool_call_update',
  ToolOutput: 'tool_output',
  ToolCallResponse: 'tool_call_response',
  Error: 'error',
  InvalidStream: 'invalid_stream',
  UserCancelled: 'user_cancelled',
  Finished: 'finished',
  MaxSessionTurns: 'max_session_turns',
  Retry: 'retry',
  Usage: 'usage',
  LoopDetected: 'loop_detected',
  ChatCompressed: 'chat_compressed',
  AgentExecutionStopped: 'agent_execution_stopped',
  AgentExecutionBlocked: 'agent_execution_blocked',
} as const;

export interface ThoughtSummary {
  /** The first `**bold**` span of the thought text. */
  subject: string;
  description: string;
}

export type InvalidStreamType =
  | 'NO_FINISH_REASON'
  | 'MALFORMED_FUNCTION_CALL'
  | 'UNEXPECTED_TOOL_CALL'
  | 'MAX_TOKENS_EXCEEDED'
  | 'SAFETY_BLOCKED'
  | 'RECITATION_BLOCKED'
  | 'OTHER_BLOCKED'
  | 'THINKING_ONLY_RESPONSE'
  | 'NO_RESPONSE_TEXT';

export interface RetryEventValue {
  /** The attempt that failed (1-based) and the bound. */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  reason: string;
  /** True for a mid-stream retry: partial output of the failed attempt MUST be discarded. */
  discardPartial: boolean;
}

/** A usage limit on `from` moved the session to `to`; `message` is the one line that tells the user. */
export interface ModelFallbackValue {
  from: string;
  to: string;
  message: string;
}

export interface UsageEventValue {
  model: string;
  usage: GenerateContentResponseUsageMetadata;
  /** Request start to last chunk. */
  durationMs: number;
  /** Set when a subagent made the request (its own conversation: not the session's context window). */
  subagent?: string;
}

export type ServerGeminiStreamEvent =
  | { type: 'content'; value: string }
  | { type: 'thought'; value: ThoughtSummary }
  | { type: 'tool_call_request'; value: ToolCallRequestInfo }
  /** Scheduler progress for a call of the current batch (validating → … → awaiting_approval → executing). */
  | { type: 'tool_call_update'; value: ToolCall }
  /** Live output chunk of an executing call (long shell commands). */
  | { type: 'tool_output'; value: { callId: string; chunk: string } }
  /** A call finished (success | error | cancelled); `response` is set. */
  | { type: 'tool_call_response'; value: ToolCall }
  | { type: 'error'; value: { error: { message: string; status?: number } } }
  | { type: 'invalid_stream'; value: { type: InvalidStreamType; message: string } }
  | { type: 'user_cancelled' }
  | { type: 'finished'; value: { reason?: FinishReason; usageMetadata?: GenerateContentResponseUsageMetadata } }
  | { type: 'max_session_turns'; value: { limit: number; scope: 'message' | 'session' } }
  | { type: 'retry'; value: RetryEventValue }
  /** The request is sent again at once on the fallback model, which the session keeps using. */
  | { type: 'model_fallback'; value: ModelFallbackValue }
  | { type: 'usage'; value: UsageEventValue }
  /** The model repeated itself (same call, same text); the message's turn was stopped. */
  | { type: 'loop_detected'; value: { kind: 'tool_call' | 'content'; message: string } }
  | { type: 'chat_compressed'; value: ChatCompressionInfo }
  /** A hook stopped the agent loop (`continue: false`); the message's work ends here. */
  | { type: 'agent_execution_stopped'; value: { reason: string } }
  /** A hook blocked the user's message (BeforeAgent) or the model's final answer (AfterAgent, then a retry). */
  | { type: 'agent_execution_blocked'; value: { reason: string } };

export type CompressionStatus = 'compressed' | 'noop' | 'inflated' | 'empty_summary' | 'failed';

export interface ChatCompressionInfo {
  originalTokenCount: number;
  newTokenCount: number;
  status: CompressionStatus;
  /** Why nothing changed, for a status other than `compressed`. */
  reason?: string;
}
