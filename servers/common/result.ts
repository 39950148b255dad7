import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import type { ErrorType, FileDiffDisplay } from '../../protocol/tool-result.js';

export function textResult(text: string, display?: string | FileDiffDisplay): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  if (display !== undefined) result._meta = { [META.display]: display };
  return result;
}

export function errorResult(text: string, errorType: ErrorType, display?: string): CallToolResult {
  return {
    content: [{ type: 'text', text }],
    isError: true,
    _meta: { [META.errorType]: errorType, ...(display !== undefined ? { [META.display]: display } : {}) },
  };
}

/** The result of a confirmation the user declined or cancelled. */
export function cancelledResult(): CallToolResult {
  return errorResult('[Operation Cancelled] Reason: User denied execution.', 'execution_failed');
}

/** Thrown by tool code for an expected failure; the kit turns it into an `isError` result. */
export class ToolError extends Error {
  constructor(message: string, readonly errorType: ErrorType) {
    super(message);
  }
}
