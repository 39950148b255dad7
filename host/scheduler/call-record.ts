import type { SchedulableTool } from './executor.js';
import type {
  ConfirmationRequest,
  ToolCall,
  ToolCallOutcome,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
  ToolCallStatus,
} from './types.js';

/**
 * The scheduler's own working copy of a call, changed in place as the call moves on. Nobody else sees
 * it: every event and result carries `snapshot(record)`, the typed state, which has only the fields
 * of its status.
 */
export interface CallRecord {
  request: ToolCallRequestInfo;
  status: ToolCallStatus;
  tool?: SchedulableTool;
  startTime: number;
  endTime?: number;
  confirmation?: ConfirmationRequest;
  liveOutput?: string;
  progress?: { progress: number; total?: number };
  response?: ToolCallResponseInfo;
  outcome?: ToolCallOutcome;
}

export function newRecord(request: ToolCallRequestInfo): CallRecord {
  return { request, status: 'validating', startTime: Date.now() };
}

/** The typed state of a record; a record missing a field its status needs is a scheduler bug. */
export function snapshot(r: CallRecord): ToolCall {
  const base = { request: r.request, startTime: r.startTime, ...(r.outcome ? { outcome: r.outcome } : {}) };
  const running = {
    ...(r.liveOutput !== undefined ? { liveOutput: r.liveOutput } : {}),
    ...(r.progress ? { progress: r.progress } : {}),
  };
  const tool = r.tool ? { tool: r.tool } : {};
  switch (r.status) {
    case 'validating':
      return { ...base, status: 'validating', ...tool };
    case 'scheduled':
      return { ...base, status: 'scheduled', tool: need(r.tool, r, 'tool') };
    case 'awaiting_approval':
      return {
        ...base,
        ...running,
        status: 'awaiting_approval',
        tool: need(r.tool, r, 'tool'),
        confirmation: need(r.confirmation, r, 'confirmation'),
      };
    case 'executing':
      return { ...base, ...running, status: 'executing', tool: need(r.tool, r, 'tool') };
  }
  const ended = {
    ...base,
    ...running,
    ...tool,
    endTime: need(r.endTime, r, 'endTime'),
    response: need(r.response, r, 'response'),
  };
  switch (r.status) {
    case 'success':
      return { ...ended, status: 'success' };
    case 'error':
      return { ...ended, status: 'error' };
    default:
      return { ...ended, status: 'cancelled' };
  }
}

function need<T>(value: T | undefined, r: CallRecord, field: string): T {
  if (value === undefined) throw new Error(`tool call ${r.request.callId} is ${r.status} without ${field}`);
  return value;
}
