import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { cmd, hook, records } from './record-hook.js';

const json = (o: unknown) => JSON.stringify(o);

describe('model hooks around each request (Gemini CLI format)', () => {
  const endpoint = scriptedEndpoints();

  it('BeforeModel rewrites model and settings, BeforeToolSelection narrows tools by Gemini CLI names, AfterModel rewrites the answer', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({
      ...ONLY('filesystem'),
      hooks: {
        BeforeModel: cmd(
          hook(
            log,
            'json',
            json({ hookSpecificOutput: { llm_request: { model: 'gemini-2.5-pro', config: { temperature: 0.1 } } } }),
          ),
        ),
        BeforeToolSelection: cmd(
          hook(
            log,
            'json',
            json({ hookSpecificOutput: { toolConfig: { mode: 'ANY', allowedFunctionNames: ['read_file', 'glob'] } } }),
          ),
        ),
        AfterModel: cmd(
          hook(
            log,
            'json',
            json({
              hookSpecificOutput: {
                llm_response: { candidates: [{ content: { role: 'model', parts: ['[redacted]'] } }] },
              },
            }),
          ),
        ),
      },
    });
    const ep = await endpoint(reply.text('my secret answer'));
    const r = await runHost(['-p', 'hello'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('[redacted]\n');
    const req = ep.requestsOf('streamGenerateContent')[0]!;
    expect(req.model).toBe('gemini-2.5-pro');
    expect(req.body.generationConfig.temperature).toBe(0.1);
    expect(req.body.toolConfig.functionCallingConfig).toEqual({
      mode: 'ANY',
      allowedFunctionNames: ['filesystem__glob', 'filesystem__read_file'],
    });
    const got = records(log);
    expect(got.map((g) => g.payload.hook_event_name)).toEqual(['BeforeModel', 'BeforeToolSelection', 'AfterModel']);
    expect(got[0].payload.llm_request.messages).toEqual([{ role: 'user', content: 'hello' }]);
    expect(got[2].payload.llm_response.text).toBe('my secret answer');
  });

  it('a BeforeModel response replaces the model call; a deny ends the turn before any request', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({
      ...ONLY(),
      hooks: {
        BeforeModel: cmd(
          hook(
            log,
            'json',
            json({
              decision: 'deny',
              reason: 'cached',
              hookSpecificOutput: { llm_response: { candidates: [{ content: { parts: ['from cache'] } }] } },
            }),
          ),
        ),
      },
    });
    const ep = await endpoint(reply.text('never'));
    const r = await runHost(['-p', 'hello'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('from cache\n');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);

    const ws2 = workspace();
    ws2.settings({ ...ONLY(), hooks: { BeforeModel: cmd(hook(join(ws2.home, 'l'), 'exit2', 'model calls are off')) } });
    const ep2 = await endpoint(reply.text('never'));
    const b = await runHost(['-p', 'hello'], { ws: ws2, url: ep2.url });
    expect(ep2.requestsOf('streamGenerateContent')).toHaveLength(0);
    expect(b.stderr).toContain('model calls are off');
  });
});
