import { describe, expect, it } from 'vitest';
import { RunStats } from '../../../host/core/run-stats.js';
import type { ToolCall } from '../../../host/scheduler/types.js';

const call = (name: string, status: string, over: Record<string, unknown> = {}) =>
  ({
    status,
    request: { callId: 'c', name, args: {}, isClientInitiated: false, promptId: 'p' },
    startTime: 1000,
    endTime: 1500,
    response: { callId: 'c', responseParts: [], responseText: '' },
    ...over,
  }) as ToolCall;

describe('RunStats', () => {
  it('per-model requests, latency and tokens; input excludes the cached part', () => {
    const s = new RunStats();
    s.usage(
      'flash',
      {
        promptTokenCount: 100,
        cachedContentTokenCount: 30,
        candidatesTokenCount: 20,
        totalTokenCount: 125,
        thoughtsTokenCount: 5,
        toolUsePromptTokenCount: 7,
      },
      40,
    );
    s.usage('flash', { promptTokenCount: 10, totalTokenCount: 12 }, 10);
    s.apiError('pro');
    expect(s.models.flash).toEqual({
      api: { totalRequests: 2, totalErrors: 0, totalLatencyMs: 50 },
      tokens: { input: 80, prompt: 110, candidates: 20, total: 137, cached: 30, thoughts: 5, tool: 7 },
    });
    expect(s.models.pro?.api).toEqual({ totalRequests: 1, totalErrors: 1, totalLatencyMs: 0 });
    expect(s.totalTokens()).toBe(137);
  });

  it('tool calls by name, with decisions, and time spent waiting for the user left out', () => {
    const s = new RunStats();
    s.tool(call('read_file', 'success', { outcome: 'auto_accept' }));
    s.tool(call('run_shell_command', 'error', { outcome: 'reject', waitedMs: 300 }));
    s.tool(call('run_shell_command', 'success', { outcome: 'accept', waitedMs: 10_000 }));
    expect(s.tools.totalCalls).toBe(3);
    expect([s.tools.totalSuccess, s.tools.totalFail]).toEqual([2, 1]);
    expect(s.tools.totalDurationMs).toBe(500 + 200 + 0);
    expect(s.tools.byName.run_shell_command).toEqual({
      count: 2,
      success: 1,
      fail: 1,
      durationMs: 200,
      decisions: { accept: 1, reject: 1, modify: 0, auto_accept: 0 },
    });
    expect(s.tools.totalDecisions).toEqual({ accept: 1, reject: 1, modify: 0, auto_accept: 1 });
  });

  it("lines added and removed come from a successful edit's diff, headers not counted", () => {
    const s = new RunStats();
    const fileDiff = '--- a.ts\tCurrent\n+++ a.ts\tProposed\n@@ -1,2 +1,3 @@\n ctx\n-old\n+new\n+more\n';
    s.tool(
      call('replace', 'success', {
        response: { callId: 'c', responseParts: [], responseText: '', resultDisplay: { fileDiff } },
      }),
    );
    s.tool(
      call('replace', 'error', {
        response: { callId: 'c', responseParts: [], responseText: '', resultDisplay: { fileDiff } },
      }),
    );
    expect(s.files).toEqual({ totalLinesAdded: 2, totalLinesRemoved: 1 });
    // A removed `--flag` line and an added `++i` line are lines, not headers; two files in one diff.
    const tricky = '--- a.sh\n+++ a.sh\n@@ -1,2 +1,2 @@\n--verbose\n+++i\n keep\n--- b\n+++ b\n@@ -0,0 +1 @@\n+new\n';
    const t = new RunStats();
    t.tool(
      call('replace', 'success', {
        response: { callId: 'c', responseParts: [], responseText: '', resultDisplay: { fileDiff: tricky } },
      }),
    );
    expect(t.files).toEqual({ totalLinesAdded: 2, totalLinesRemoved: 1 });
  });

  it('json and stream-json shapes; sampling only when a server asked', () => {
    const s = new RunStats();
    s.usage(
      'm1',
      { promptTokenCount: 10, cachedContentTokenCount: 4, candidatesTokenCount: 3, totalTokenCount: 13 },
      1,
    );
    s.usage('m2', { promptTokenCount: 5, candidatesTokenCount: 1, totalTokenCount: 6 }, 1);
    expect(Object.keys(s.json())).toEqual(['models', 'tools', 'files']);
    const stream = s.streamJson();
    expect(stream).toMatchObject({
      total_tokens: 19,
      input_tokens: 15,
      output_tokens: 4,
      cached: 4,
      input: 11,
      tool_calls: 0,
      models: { m1: { total_tokens: 13, input_tokens: 10, output_tokens: 3, cached: 4, input: 6 } },
    });
    expect(stream.duration_ms).toBeGreaterThanOrEqual(0);
    s.sampling = () => ({});
    expect(s.json().sampling).toBeUndefined();
    s.sampling = () => ({ crm: { requests: 1 } });
    expect(s.json().sampling).toEqual({ crm: { requests: 1 } });
    expect(s.streamJson().sampling).toEqual({ crm: { requests: 1 } });
  });
});
