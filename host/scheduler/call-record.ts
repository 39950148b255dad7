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

/**
 * The typed state of a record; a record missing a field its status needs is a scheduler bug. Built as one
 * literal per status plus plain assignments of the optional fields (absent stays absent): every status
 * change emits one, several per call, and object spreads made this a measurable part of a trivial call.
 */
export function snapshot(r: CallRecord): ToolCall {
  const s = stateFields(r);
  if (r.outcome) s.outcome = r.outcome;
  if (r.waitedMs) s.waitedMs = r.waitedMs;
  if (s.status === 'validating' || s.status === 'scheduled') return s;
  if (r.liveOutput !== undefined) s.liveOutput = r.liveOutput;
  if (r.progress) s.progress = r.progress;
  return s;
}

/** The fields a status requires, and the tool where a status may lack it. */
function stateFields(r: CallRecord): ToolCall {
  const { request, startTime } = r;
  switch (r.status) {
    case 'validating':
      return r.tool
        ? { request, startTime, status: 'validating', tool: r.tool }
        : { request, startTime, status: 'validating' };
    case 'scheduled':
      return { request, startTime, status: 'scheduled', tool: need(r.tool, r, 'tool') };
    case 'awaiting_approval': {
      const confirmation = need(r.confirmation, r, 'confirmation');
      return { request, startTime, status: 'awaiting_approval', tool: need(r.tool, r, 'tool'), confirmation };
    }
    case 'executing':
      return { request, startTime, status: 'executing', tool: need(r.tool, r, 'tool') };
  }
  const status = r.status === 'success' || r.status === 'error' ? r.status : 'cancelled';
  const endTime = need(r.endTime, r, 'endTime');
  const response = need(r.response, r, 'response');
  return r.tool
    ? { request, startTime, status, endTime, response, tool: r.tool }
    : { request, startTime, status, endTime, response };
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
