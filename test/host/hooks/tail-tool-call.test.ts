import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { hook, records } from './record-hook.js';

type Body = { contents: { role: string; parts: Record<string, any>[] }[] };
const lastParts = (b: Body) => b.contents.at(-1)!.parts;

/** An AfterTool hook's output asking for a tail call, in Gemini CLI 0.61's shape. */
const tail = (name: string, args: Record<string, unknown>) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'AfterTool', tailToolCallRequest: { name, args } } });

describe('AfterTool tailToolCallRequest (headless binary)', () => {
  const endpoint = scriptedEndpoints();

  it('the tail call is made through the hooks and policy, and its response replaces the original one', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    const notes = ws.file('notes.txt', 'the notes say 42\n');
    const out = join(ws.cwd, 'out.txt');
    ws.settings({
      ...ONLY('filesystem'),
      tools: { allowed: ['write_file'] },
      hooks: {
        BeforeTool: [{ hooks: [{ type: 'command', command: hook(log, 'pass') }] }],
        AfterTool: [
          {
            matcher: 'write_file',
            hooks: [{ type: 'command', command: hook(log, 'json', tail('read_file', { file_path: notes })) }],
          },
        ],
      },
    });
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: out, content: 'hello\n' } }),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'write it'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('done');
    // The original call ran; the model gets the tail's response in its place, under the name it called.
    expect(readFileSync(out, 'utf8')).toBe('hello\n');
    const parts = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body);
    expect(parts).toHaveLength(1);
    const fr = parts[0]!.functionResponse;
    expect(fr).toMatchObject({ id: 'w1', name: 'filesystem__write_file' });
    expect(fr.response.output).toContain('the notes say 42');
    expect(JSON.stringify(fr.response)).not.toContain('out.txt');
    // The tail went through BeforeTool hooks like any call, told which call it replaces.
    const got = records(log).map((g) => g.payload);
    expect(got.map((p) => `${p.hook_event_name}:${p.tool_name}`)).toEqual([
      'BeforeTool:write_file',
      'AfterTool:write_file',
      'BeforeTool:read_file',
    ]);
    expect(got[0]).not.toHaveProperty('original_request_name');
    expect(got[2]).toMatchObject({ original_request_name: 'write_file', tool_input: { file_path: notes } });
  });

  it('a tail naming no tool answers with the not-found error; an endless chain of tails is cut off', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    const notes = ws.file('notes.txt', 'n\n');
    ws.settings({
      ...ONLY('filesystem'),
      hooks: {
        AfterTool: [
          {
            matcher: 'list_directory',
            hooks: [{ type: 'command', command: hook(log, 'json', tail('no_such_tool', {})) }],
          },
          {
            matcher: 'read_file',
            hooks: [{ type: 'command', command: hook(log, 'json', tail('read_file', { file_path: notes })) }],
          },
        ],
      },
    });
    const ep = await endpoint(
      reply.calls(
        { id: 'l1', name: 'filesystem__list_directory', args: { dir_path: ws.cwd } },
        { id: 'r1', name: 'filesystem__read_file', args: { file_path: notes } },
      ),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'look'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const [missing, looped] = lastParts(ep.requestsOf('streamGenerateContent')[1]!.body).map((p) => p.functionResponse);
    expect(missing).toMatchObject({ id: 'l1', name: 'filesystem__list_directory' });
    expect(missing.response.error).toContain('Tool "no_such_tool" not found');
    expect(looped).toMatchObject({ id: 'r1', name: 'filesystem__read_file' });
    expect(looped.response.error).toContain('more than 10 tail calls');
    // One AfterTool run for the list, eleven for the read and its ten tails.
    expect(records(log)).toHaveLength(12);
  });
});
