import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

const FAULT = join(REPO, 'test/fixtures/fault-server.mjs');

describe('tools/list_changed without races', () => {
  const endpoint = scriptedEndpoints();

  it('a tool a server adds during a call is declared in the very next request and callable at once', async () => {
    const ws = workspace();
    ws.settings({
      ...ONLY(),
      mcpServers: { f: { command: process.execPath, args: [FAULT], env: { FAULT_STATE_DIR: tempDir() }, trust: true } },
    });
    // The scripted model answers instantly: no time passes between the tool result and the next request.
    const ep = await endpoint(
      reply.calls({ id: 'a1', name: 'f__add_tool' }),
      reply.calls({ id: 'x1', name: 'f__extra_tool' }),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'add a tool and use it'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const reqs = ep.requestsOf('streamGenerateContent');
    const declared = (i: number) => reqs[i]!.body.tools[0].functionDeclarations.map((d: { name: string }) => d.name);
    expect(declared(0)).not.toContain('f__extra_tool');
    expect(declared(1)).toContain('f__extra_tool');
    const answer = reqs[2]!.body.contents.at(-1).parts[0].functionResponse;
    expect(answer).toMatchObject({ id: 'x1', name: 'f__extra_tool' });
    expect(answer.response.error).toBeUndefined();
  }, 60_000);
});
