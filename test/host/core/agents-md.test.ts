import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { type RequestBody, systemText } from '../../helpers/request-body.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

describe('AGENTS.md is a context file by default', () => {
  const endpoint = scriptedEndpoints();

  it('is read beside GEMINI.md; context.fileName naming only GEMINI.md leaves it out', async () => {
    const ws = workspace();
    ws.settings(ONLY('memory'));
    ws.file('GEMINI.md', 'Rule from GEMINI.md.\n');
    ws.file('AGENTS.md', 'Rule from AGENTS.md.\n');
    const ep = await endpoint(reply.text('ok'), reply.text('ok'));
    const r = await runHost(['-p', 'hi'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const both = systemText(ep.requestsOf('streamGenerateContent')[0]!.body as RequestBody);
    expect(both).toContain('Rule from GEMINI.md.');
    expect(both).toContain('Rule from AGENTS.md.');
    ws.settings({ ...ONLY('memory'), context: { fileName: 'GEMINI.md' } });
    const only = await runHost(['-p', 'hi'], { ws, url: ep.url });
    expect(only.code, only.stderr).toBe(0);
    const one = systemText(ep.requestsOf('streamGenerateContent')[1]!.body as RequestBody);
    expect(one).toContain('Rule from GEMINI.md.');
    expect(one).not.toContain('Rule from AGENTS.md.');
  });
});
