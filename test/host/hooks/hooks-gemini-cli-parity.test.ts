import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCli, runGeminiCliAgainst } from '../../helpers/gemini-cli.js';
import { ONLY, runHost, scriptedEndpoints, workspace, type Workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { hook, records } from './record-hook.js';

type Body = { contents: { role: string; parts: Record<string, any>[] }[] };

/**
 * The same hook settings and the same scripted model through Gemini CLI 0.61 and through our host: an
 * AfterTool hook's tail call replaces the call's response (what the model gets next), the tail's hooks are
 * told the original name, and a SessionStart systemMessage reaches stderr as it is.
 */
describe('hooks: parity with Gemini CLI 0.61 against the same scripted model', () => {
  const endpoint = scriptedEndpoints();

  function settings(ws: Workspace, log: string, notes: string) {
    const tail = {
      hookSpecificOutput: {
        hookEventName: 'AfterTool',
        tailToolCallRequest: { name: 'read_file', args: { file_path: notes } },
      },
    };
    ws.settings({
      ...ONLY('filesystem'),
      hooksConfig: { enabled: true },
      // Gemini CLI takes GOOGLE_GEMINI_BASE_URL alone for a gateway, which -p refuses: the key's auth type.
      security: { auth: { selectedType: 'gemini-api-key' } },
      hooks: {
        SessionStart: [
          {
            hooks: [
              {
                type: 'command',
                name: 'greeter',
                command: hook(log, 'json', JSON.stringify({ systemMessage: 'Welcome from the session hook' })),
              },
            ],
          },
        ],
        BeforeTool: [{ matcher: '.*', hooks: [{ type: 'command', command: hook(log, 'pass') }] }],
        AfterTool: [
          { matcher: 'write_file', hooks: [{ type: 'command', command: hook(log, 'json', JSON.stringify(tail)) }] },
        ],
      },
    });
  }

  async function run(who: 'gemini' | 'ours', entry: string | undefined) {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    const notes = ws.file('notes.txt', 'the notes say 42\n');
    settings(ws, log, notes);
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'write_file', args: { file_path: join(ws.cwd, 'out.txt'), content: 'hello\n' } }),
      reply.text('done'),
    );
    const args = ['-p', 'write it', '--yolo'];
    let r: { code: number | null; stdout: string; stderr: string };
    if (who === 'ours') r = await runHost(args, { ws, url: ep.url });
    else r = await runGeminiCliAgainst(entry!, ws, ep.url, args);
    const next = ep.requestsOf('streamGenerateContent')[1]?.body as Body | undefined;
    const response = next?.contents.at(-1)?.parts[0]?.functionResponse;
    const hooks = records(log).map(({ payload: p }) => ({
      event: p.hook_event_name,
      tool: p.tool_name,
      original: p.original_request_name,
      // Field by field: the same names at the top and in the tool's response.
      fields: Object.keys(p).sort(),
      response: p.tool_response ? Object.keys(p.tool_response).sort() : undefined,
    }));
    return { ...r, response, hooks };
  }

  it('tail call, original_request_name and the SessionStart systemMessage', { timeout: 300_000 }, async () => {
    const { entry, why } = geminiCli();
    // CI reaches the npm registry, so a missing Gemini CLI there is a failure, not a skip.
    if (!entry && !process.env.CI) return console.warn(`hooks-gemini-cli-parity: skipped, ${why}`);
    expect(entry, why).toBeDefined();
    const theirs = await run('gemini', entry);
    const ours = await run('ours', undefined);
    expect(theirs.code, theirs.stderr.slice(-2000)).toBe(0);
    expect(ours.code, ours.stderr).toBe(0);
    expect(theirs.response).toMatchObject({ id: 'w1', name: 'write_file' });
    expect(theirs.response.response.output).toContain('the notes say 42');
    expect(ours.response).toMatchObject({ id: 'w1', name: theirs.response.name });
    expect(ours.response.response.output).toContain('the notes say 42');
    expect(theirs.hooks).toMatchObject([
      { event: 'SessionStart' },
      { event: 'BeforeTool', tool: 'write_file' },
      { event: 'AfterTool', tool: 'write_file' },
      { event: 'BeforeTool', tool: 'read_file', original: 'write_file' },
    ]);
    expect(ours.hooks).toEqual(theirs.hooks);
    for (const r of [theirs, ours]) expect(r.stderr.split('\n')).toContain('Welcome from the session hook');
  });
});
