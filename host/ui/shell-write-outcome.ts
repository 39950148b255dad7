import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import { McpCallError } from '../mcp/errors.js';

/** What became of one `write_to_shell` call: delivered, or why not and whether the command is gone. */
export type ShellWriteOutcome = { ok: true } | { ok: false; reason: string; gone: boolean };

/**
 * The one judgement of a `write_to_shell` call, for keys and resizes alike: `result` when the call returned,
 * `error` when it threw. The tool fails with `execution_failed` only when no command of that pid runs in a
 * terminal (bad arguments are `invalid_tool_params`); a server that crashed or is not connected has lost its
 * commands with it (a restarted one does not know the pid). Either way the command is gone.
 */
export function shellWriteOutcome(result: CallToolResult | undefined, error?: unknown): ShellWriteOutcome {
  if (error !== undefined) {
    const gone = error instanceof McpCallError && (error.kind === 'crashed' || error.kind === 'not_connected');
    return { ok: false, reason: error instanceof Error ? error.message : String(error), gone };
  }
  if (!result?.isError) return { ok: true };
  const text = (result.content ?? [])
    .map((c) => (c.type === 'text' ? c.text : ''))
    .join('\n')
    .trim();
  const gone = result._meta?.[META.errorType] === 'execution_failed';
  return { ok: false, reason: text || 'the server reported an error', gone };
}
