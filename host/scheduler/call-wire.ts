import { META } from '../../protocol/meta.js';
import type { CallRecord } from './call-record.js';
import type { SchedulerEvent, ToolCallRequestInfo } from './types.js';

/** The terminal a person types at: its size for a command run in a pseudo-terminal. */
export type UserTerminal = () => { cols: number; rows: number } | undefined;

/** A progress notification as the server sent it. */
export interface ProgressNote {
  progress: number;
  total?: number;
  message?: string;
  _meta?: Record<string, unknown>;
}

/**
 * What travels with a call to its server in `_meta`: its id, whether policy already allowed it, and the user's
 * terminal when there is one (a subagent's call has no screen of its own to type into: only the main
 * conversation's calls get it).
 */
export function callMeta(
  request: ToolCallRequestInfo,
  preapproved: boolean,
  terminal?: UserTerminal,
): Record<string, unknown> {
  const size = request.parentCallId ? undefined : terminal?.();
  return {
    [META.callId]: request.callId,
    ...(preapproved ? { [META.preapproved]: true } : {}),
    ...(size ? { [META.terminal]: size } : {}),
  };
}

/**
 * The raw bytes a command's terminal printed, when the server sent them with a progress notification (only
 * to a caller that gave a terminal): the event the chat draws the command's screen from.
 */
export function terminalEvent(call: CallRecord, p: ProgressNote): SchedulerEvent | undefined {
  const term = p._meta?.[META.terminalOutput] as { pid?: unknown; data?: unknown } | undefined;
  if (!call.tool || !term || !Number.isInteger(term.pid) || typeof term.data !== 'string') return undefined;
  return {
    type: 'tool_terminal',
    callId: call.request.callId,
    serverAlias: call.tool.serverAlias,
    pid: term.pid as number,
    data: term.data,
  };
}
