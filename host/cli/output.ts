import { unwrapUntrusted } from '../../protocol/tool-result.js';
import type { ToolCall } from '../scheduler/types.js';

/** The text a tool call failed with, for stderr and tool_result. */
export function toolErrorText(call: ToolCall): string | undefined {
  if (call.status === 'success') return undefined;
  return call.response?.error ?? (call.status === 'cancelled' ? 'cancelled' : 'failed');
}

/** What a successful call gave the model, as text. */
export function toolOutputText(call: ToolCall): string | undefined {
  if (call.status !== 'success') return undefined;
  return unwrapUntrusted(call.response.responseText);
}
