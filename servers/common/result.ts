import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import type { ErrorType, FileDiffDisplay } from '../../protocol/tool-result.js';
import { USER_DENIED_TEXT } from '../../protocol/tool-names.js';

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
  return errorResult(USER_DENIED_TEXT, 'execution_failed');
}

/**
 * Thrown by tool code for an expected failure; the kit turns it into an `isError` result (with the
 * user-facing `display` when given). A handler either throws these or returns `errorResult`, never both.
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly errorType: ErrorType,
    readonly display?: string,
  ) {
    super(message);
  }
}

/** The user declined or cancelled the confirmation: thrown like any other failure. */
export function userCancelled(): ToolError {
  return new ToolError(USER_DENIED_TEXT, 'execution_failed');
}
