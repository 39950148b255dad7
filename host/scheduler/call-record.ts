import { functionResponseParts } from './convert-result.js';
import type {
  ConfirmationRequest,
  ResultDisplay,
  ToolCall,
  ToolCallOutcome,
  ToolCallRequestInfo,
  ToolCallResponseInfo,
  ToolCallStatus,
  ToolRef,
} from './types.js';

/**
 * The scheduler's own working copy of a call, changed in place as the call moves on. Nobody else sees
 * it: every event and result carries `snapshot(record)`, the typed state, which has only the fields
 * of its status.
 */
export interface CallRecord {
  request: ToolCallRequestInfo;
  status: ToolCallStatus;
  tool?: ToolRef;
  startTime: number;
  endTime?: number;
  confirmation?: ConfirmationRequest;
  liveOutput?: string;
  progress?: { progress: number; total?: number };
  response?: ToolCallResponseInfo;
  outcome?: ToolCallOutcome;
  /** The arguments as the model spelled them, before another client's spellings were turned into ours. */
  argsAsSent?: Record<string, unknown>;
  /** How many AfterTool tail calls replaced this call so far, and the tool the model called. */
  tails?: number;
  originalTool?: ToolRef;
  /** Argument names a BeforeTool hook rewrote (the model is told). */
  modifiedByHook?: string[];
  waitedMs?: number;
  /** When the current wait for the user began. */
  waitStart?: number;
}

export function newRecord(request: ToolCallRequestInfo): CallRecord {
  return { request, status: 'validating', startTime: Date.now() };
}

/** The typed state of a record; a record missing a field its status needs is a scheduler bug. */
export function snapshot(r: CallRecord): ToolCall {
  const base = {
    request: r.request,
    startTime: r.startTime,
    ...(r.outcome ? { outcome: r.outcome } : {}),
    ...(r.waitedMs ? { waitedMs: r.waitedMs } : {}),
  };
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

const LIVE_OUTPUT_LIMIT = 20_000;

/** A call may be decided more than once (a pre-call ask, then in-call questions): the strongest stands. */
const OUTCOME_RANK: Record<ToolCallOutcome, number> = { auto_accept: 0, accept: 1, modify: 2, reject: 3 };

export function decide(call: CallRecord, outcome: ToolCallOutcome): void {
  if (!call.outcome || OUTCOME_RANK[outcome] >= OUTCOME_RANK[call.outcome]) call.outcome = outcome;
}

/**
 * Records a progress notification; a message joins the live output (its tail kept) and is returned for
 * streaming. A notification without a message still moves the card's percentage.
 */
export function applyProgress(
  call: CallRecord,
  p: { progress: number; total?: number; message?: string },
): string | undefined {
  call.progress = { progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}) };
  if (!p.message) return undefined;
  const live = call.liveOutput ? `${call.liveOutput}\n${p.message}` : p.message;
  call.liveOutput = live.length > LIVE_OUTPUT_LIMIT ? live.slice(live.length - LIVE_OUTPUT_LIMIT) : live;
  return p.message;
}

/** The response of a call that failed or was cancelled: the model reads `{error}`. */
export function errorResponse(
  call: CallRecord,
  text: string,
  errorType: string,
  display?: ResultDisplay,
): ToolCallResponseInfo {
  return {
    callId: call.request.callId,
    responseParts: functionResponseParts(call.request.callId, answeredName(call.request), { error: text }),
    responseText: text,
    resultDisplay: display ?? text,
    error: text,
    errorType,
  };
}

/** The name a response answers: the model's call, also when a hook's tail call replaced it. */
export const answeredName = (r: ToolCallRequestInfo): string => r.originalRequestName ?? r.name;
