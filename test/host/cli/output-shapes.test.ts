import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunk, reply, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

describe('headless output shapes and failure classes', () => {
  const ws = workspace();
  ws.settings(ONLY('filesystem'));
  const endpoint = scriptedEndpoints();

  it('json stats carry the upstream counters: tokens, decisions, byName, file lines', async () => {
    const ep = await endpoint(
      reply.calls(
        {
          id: 'w1',
          name: 'filesystem__write_file',
          args: { file_path: join(ws.cwd, 'new.txt'), content: 'one\ntwo\n' },
        },
        { id: 'm1', name: 'filesystem__nope' },
      ),
      reply.text('Written.'),
    );
    const r = await runHost(['-p', 'write', '-y', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const { stats } = JSON.parse(r.stdout);
    expect(Object.keys(stats).sort()).toEqual(['files', 'models', 'tools']);
    const model = stats.models['gemini-3-pro-preview'];
    expect(Object.keys(model.api).sort()).toEqual(['totalErrors', 'totalLatencyMs', 'totalRequests']);
    expect(model.tokens).toEqual({ input: 20, prompt: 20, candidates: 10, total: 30, cached: 0, thoughts: 0, tool: 0 });
    expect(stats.tools).toMatchObject({
      totalCalls: 2,
      totalSuccess: 1,
      totalFail: 1,
      // the unknown tool was never up for approval; the write was let through by --yolo
      totalDecisions: { accept: 0, reject: 0, modify: 0, auto_accept: 1 },
    });
    expect(stats.tools.byName.filesystem__write_file).toMatchObject({
      count: 1,
      success: 1,
      fail: 0,
      decisions: { accept: 0, reject: 0, modify: 0, auto_accept: 1 },
    });
    expect(stats.files).toEqual({ totalLinesAdded: 2, totalLinesRemoved: 0 });
  });

  it('text output: model messages before and after a tool call are separate lines', async () => {
    const file = ws.file('seen.txt', 'x\n');
    const ep = await endpoint(
      {
        method: 'generateContentStream',
        response: [
          chunk([{ text: 'Let me look.' }]),
          chunk([{ functionCall: { id: 'r1', name: 'filesystem__read_file', args: { absolute_path: file } } }], true),
        ],
      },
      reply.text('There are ', 'two files.'),
    );
    const r = await runHost(['-p', 'look'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Let me look.\nThere are two files.\n');
  });

  it('stream-json result stats: snake_case totals and snake_case per-model counters', async () => {
    const ep = await endpoint(reply.text('a', 'b'));
    const r = await runHost(['-p', 'x', '-o', 'stream-json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout.trim().split('\n').at(-1)!);
    expect(result.type).toBe('result');
    expect(typeof result.timestamp).toBe('string');
    expect(Object.keys(result.stats).sort()).toEqual([
      'cached',
      'duration_ms',
      'input',
      'input_tokens',
      'models',
      'output_tokens',
      'tool_calls',
      'total_tokens',
    ]);
    expect(result.stats.models).toEqual({
      'gemini-3-pro-preview': { total_tokens: 15, input_tokens: 10, output_tokens: 5, cached: 0, input: 10 },
    });
  });

  it('a refused API key exits 41 and says what to check', async () => {
    const ep = await endpoint(reply.error(401, 'API key not valid. Please pass a valid API key.'));
    const r = await runHost(['-p', 'x', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(41);
    const { error } = JSON.parse(r.stdout);
    expect(error).toMatchObject({ type: 'FatalAuthenticationError', code: 41 });
    expect(error.message).toContain('API key not valid');
    expect(error.message).toContain('GEMINI_API_KEY');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(1); // not retried
  });

  it('an unknown model names the ways to pick another (exit 1, not retried)', async () => {
    const ep = await endpoint(reply.error(404, 'models/gemini-0 is not found for API version v1beta'));
    const r = await runHost(['-p', 'x', '-m', 'gemini-0'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('Model "gemini-0" is not available');
    expect(r.stderr).toContain('-m, GEMINI_MODEL');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(1);
  });

  it('an unreachable endpoint is retried, then reported with its cause (not a bare "fetch failed")', async () => {
    const closed = await startScriptedGemini([]);
    await closed.close(); // a port nothing listens on
    const ws2 = workspace();
    ws2.settings({ ...ONLY(), general: { maxAttempts: 2 } });
    const r = await runHost(['-p', 'x'], { ws: ws2, url: closed.url });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/retrying in .*attempt 2 of 2/);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stderr).toContain('Could not reach the Gemini API');
  });
});
