import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { hook, records } from './record-hook.js';

describe("hooks around the host's own tools", () => {
  const endpoint = scriptedEndpoints();

  it("a BeforeTool hook for write_todos gets Gemini CLI's bare tool name, as 0.61 sends it", async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({
      ...ONLY(),
      hooks: { BeforeTool: [{ matcher: 'write_todos', hooks: [{ type: 'command', command: hook(log, 'pass') }] }] },
    });
    const todos = [{ description: 'Read the code', status: 'in_progress' }];
    const ep = await endpoint(reply.calls({ id: 'w1', name: 'write_todos', args: { todos } }), reply.text('ok'));
    const r = await runHost(['-p', 'plan it'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const got = records(log);
    expect(got).toHaveLength(1);
    expect(got[0].payload).toMatchObject({
      hook_event_name: 'BeforeTool',
      tool_name: 'write_todos',
      tool_input: { todos },
    });
  });
});
