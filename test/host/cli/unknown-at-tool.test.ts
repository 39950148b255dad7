import { describe, expect, it } from 'vitest';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply } from '../../helpers/scripted-gemini.mjs';

describe('an @name(…) that is no tool', () => {
  const endpoint = scriptedEndpoints();

  it('is an error naming the closest tools; nothing runs and nothing is sent to the model', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const ep = await endpoint(reply.text('should not be asked'));
    const r = await runHost(['-p', 'look @filesystem__read_fiel({"file_path":"a.txt"}) and @nope__tool({})'], {
      ws,
      url: ep.url,
    });
    expect(r.code, r.stderr).toBe(42);
    expect(r.stderr).toContain('@filesystem__read_fiel(…) is not a tool. Closest: filesystem__read_file');
    expect(r.stderr).toMatch(/@nope__tool\(…\) is not a tool\. Closest: filesystem__\w+/);
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);
  });
});
