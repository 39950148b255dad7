import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { cmd, hook, records } from './record-hook.js';

const FAULT = join(import.meta.dirname, '../../fixtures/fault-server.mjs');

/** Payload fields checked one by one against Gemini CLI 0.61's hook input types (docs/hooks.md has the table). */
describe('hook payloads in Gemini CLI 0.61’s shape (headless binary)', () => {
  const endpoint = scriptedEndpoints();

  it('mcp_context names the server’s settings key and connection; a failed call’s tool_response.error is {message, type}', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({
      ...ONLY('filesystem'),
      mcpServers: { fault: { command: process.execPath, args: [FAULT], trust: true } },
      hooks: { BeforeTool: cmd(hook(log, 'pass')), AfterTool: cmd(hook(log, 'pass')) },
    });
    const missing = join(ws.cwd, 'missing.txt');
    const ep = await endpoint(
      reply.calls(
        { id: 'e1', name: 'fault__echo', args: { text: 'hi' } },
        { id: 'r1', name: 'filesystem__read_file', args: { file_path: missing } },
      ),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'go'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const got = records(log).map((g) => g.payload);
    const of = (event: string, tool: string) => got.find((p) => p.hook_event_name === event && p.tool_name === tool);
    // cwd: the folder the server runs in (Gemini CLI sends it only when settings set it).
    const context = { server_name: 'fault', tool_name: 'echo', command: process.execPath, args: [FAULT], cwd: ws.cwd };
    expect(of('BeforeTool', 'mcp_fault_echo').mcp_context).toEqual(context);
    const echoed = of('AfterTool', 'mcp_fault_echo');
    expect(echoed.mcp_context).toEqual(context);
    expect(echoed.tool_response).toMatchObject({ llmContent: expect.stringContaining('hi') });
    expect(echoed.tool_response).not.toHaveProperty('error');
    const failed = of('AfterTool', 'read_file');
    expect(failed).not.toHaveProperty('mcp_context');
    expect(failed.tool_response.error).toEqual({
      message: expect.stringContaining('missing.txt'),
      type: expect.any(String),
    });
  });

  it('AfterTool’s tool_input is the input the call ran with, after a BeforeTool hook rewrote it', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    const out = join(ws.cwd, 'out.txt');
    ws.settings({
      ...ONLY('filesystem'),
      tools: { allowed: ['write_file'] },
      hooks: {
        BeforeTool: cmd(hook(log, 'rewrite', JSON.stringify({ content: 'rewritten\n' }))),
        AfterTool: cmd(hook(log, 'pass')),
      },
    });
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: out, content: 'original\n' } }),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'write'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [before, after] = records(log).map((g) => g.payload);
    expect(before.tool_input).toEqual({ file_path: out, content: 'original\n' });
    expect(after.tool_input).toEqual({ file_path: out, content: 'rewritten\n' });
  });

  it('AfterModel’s llm_response has Gemini CLI’s usageMetadata counts and safetyRatings', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({ ...ONLY('filesystem'), hooks: { AfterModel: cmd(hook(log, 'pass')) } });
    const ep = await endpoint({
      method: 'generateContentStream',
      response: [
        {
          candidates: [
            {
              content: { role: 'model', parts: [{ text: 'hello' }] },
              index: 0,
              finishReason: 'STOP',
              safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
            },
          ],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 3, totalTokenCount: 18 },
        },
      ],
    });
    const r = await runHost(['-p', 'hi'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [after] = records(log).map((g) => g.payload);
    expect(after.llm_response.usageMetadata).toEqual({
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      totalTokenCount: 18,
    });
    expect(after.llm_response.candidates[0]).toEqual({
      content: { role: 'model', parts: ['hello'] },
      finishReason: 'STOP',
      index: 0,
      safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
    });
  });
});
