import type { SchedulerEvent, ToolCall, ToolCallRequestInfo } from '../scheduler/types.js';
import type { ServerGeminiStreamEvent } from './events.js';
import type { LoopScheduler } from './loop-runtime.js';

const TERMINAL = new Set(['success', 'error', 'cancelled']);

/**
 * One turn's tool calls as stream events: the scheduler's progress for those calls, and what is reported on
 * their behalf while they run (a subagent's model requests), in the order they happen, so a consumer of the
 * stream sees approvals, live output and results in order. Every call ends in exactly one response event.
 */
export class ToolBatchStream {
  private push?: (ev: ServerGeminiStreamEvent) => void;

  /** Reports an event of work a running call does for the loop; outside a batch there is no call to tell of. */
  report(ev: ServerGeminiStreamEvent): void {
    this.push?.(ev);
  }

  async *run(
    scheduler: LoopScheduler,
    requests: ToolCallRequestInfo[],
    signal: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, ToolCall[]> {
    const ids = new Set(requests.map((r) => r.callId));
    const answered = new Set<string>();
    const queue: ServerGeminiStreamEvent[] = [];
    let wake: (() => void) | undefined;
    const push = (ev: ServerGeminiStreamEvent) => {
      queue.push(ev);
      wake?.();
    };
    const onEvent = (e: SchedulerEvent): void => {
      if (e.type === 'tool_output') {
        if (ids.has(e.callId)) push({ type: 'tool_output', value: { callId: e.callId, chunk: e.chunk } });
      } else if (e.type === 'tool_call_update' && ids.has(e.call.request.callId)) {
        const call = { ...e.call };
        if (!TERMINAL.has(call.status) || !call.response) push({ type: 'tool_call_update', value: call });
        else if (!answered.has(call.request.callId)) {
          answered.add(call.request.callId);
          push({ type: 'tool_call_response', value: call });
        }
      }
    };
    let done = false;
    let result: ToolCall[] = [];
    let failure: unknown;
    scheduler.on('event', onEvent);
    this.push = push;
    const run = scheduler.schedule(requests, signal).then(
      (calls) => void (result = calls),
      (err: unknown) => void (failure = err),
    );
    void run.finally(() => {
      done = true;
      wake?.();
    });
    try {
      for (;;) {
        while (queue.length) yield queue.shift()!;
        if (done) break;
        await new Promise<void>((r) => (wake = r));
        wake = undefined;
      }
    } finally {
      scheduler.off('event', onEvent);
      this.push = undefined;
    }
    if (failure) throw failure;
    for (const call of result) {
      if (!answered.has(call.request.callId)) yield { type: 'tool_call_response', value: call };
    }
    return result;
  }
}
