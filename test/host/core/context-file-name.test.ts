import { statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { waitFor } from '../../helpers/wait.js';

/** `context.fileName` and just-in-time subdirectory context, through the real host and memory server. */
describe('context.fileName and subdirectory context', () => {
  const endpoint = scriptedEndpoints();

  it("loads every configured name at start and a subdirectory's files once when the model reads there", async () => {
    const ws = workspace();
    ws.settings({ context: { fileName: ['AGENTS.md', 'GEMINI.md'] }, mcp: { excluded: ['shell', 'web'] } });
    ws.file('AGENTS.md', 'root agents rule');
    ws.file('GEMINI.md', 'root gemini rule');
    ws.file('CLAUDE.md', 'not a configured name');
    ws.file('pkg/api/AGENTS.md', 'api agents rule');
    ws.file('pkg/GEMINI.md', 'pkg gemini rule');
    const a = ws.file('pkg/api/a.txt', 'alpha');
    const b = ws.file('pkg/api/b.txt', 'beta');
    const other = ws.file('docs/c.txt', 'gamma');
    const ep = await endpoint(
      reply.calls({ id: 'r1', name: 'filesystem__read_file', args: { absolute_path: a } }),
      reply.calls({ id: 'r2', name: 'filesystem__read_file', args: { absolute_path: b } }),
      reply.calls({ id: 'r3', name: 'filesystem__read_file', args: { absolute_path: other } }),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'read them'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const reqs = ep.requestsOf('streamGenerateContent');
    const system = reqs[0]!.body.systemInstruction.parts[0].text as string;
    expect(system).toContain('root agents rule');
    expect(system).toContain('root gemini rule');
    expect(system).not.toContain('not a configured name');
    expect(system).not.toContain('api agents rule'); // subdirectories wait until the model goes there
    const responseText = (i: number) => JSON.stringify(reqs[i]!.body.contents.at(-1));
    const first = responseText(1);
    expect(first).toContain('alpha');
    expect(first).toContain('Newly Discovered Project Context');
    expect(first).toContain('pkg gemini rule');
    expect(first).toContain('api agents rule');
    expect(first.indexOf('pkg gemini rule')).toBeLessThan(first.indexOf('api agents rule')); // outermost first
    const second = responseText(2);
    expect(second).toContain('beta');
    expect(second).not.toContain('Newly Discovered'); // shown once per session
    expect(responseText(3)).not.toContain('Newly Discovered'); // docs/ has no context file
  });

  it('a context file that appears in a folder already read is shown at the next read there', async () => {
    const ws = workspace();
    ws.settings({ mcp: { excluded: ['shell', 'web'] } });
    const a = ws.file('pkg/api/a.txt', 'alpha');
    const api = dirname(a);
    // The host keeps the memory server's answer for a folder only once the paths it depends on have been
    // quiet for a clock tick of the file system (two seconds covers every kind): wait for that, so the first read's answer is kept and must be noticed as stale.
    await waitFor(
      () => [api, dirname(api), a].every((p) => Date.now() - statSync(p).ctimeMs > 2_500),
      'the workspace folders to settle',
    );
    let planted = false;
    const ep = await startScriptedGemini(
      [
        reply.calls({ id: 'r1', name: 'filesystem__read_file', args: { absolute_path: a } }),
        reply.calls({ id: 'r2', name: 'filesystem__read_file', args: { absolute_path: a } }),
        reply.calls({ id: 'r3', name: 'filesystem__read_file', args: { absolute_path: a } }),
        reply.text('done'),
      ],
      {
        // The second model request carries the first read's answer: the file appears before the second read.
        onRequest: (r) => {
          if (r.method !== 'streamGenerateContent' || planted) return;
          if (!JSON.stringify(r.body.contents ?? []).includes('alpha')) return;
          writeFileSync(join(api, 'GEMINI.md'), 'late api rule');
          planted = true;
        },
      },
    );
    try {
      const r = await runHost(['-p', 'read it three times'], { ws, url: ep.url });
      expect(r.code, r.stderr).toBe(0);
      const reqs = ep.requestsOf('streamGenerateContent');
      const responseText = (i: number) => JSON.stringify(reqs[i]!.body.contents.at(-1));
      expect(responseText(1)).toContain('alpha');
      expect(responseText(1)).not.toContain('Newly Discovered');
      expect(responseText(2)).toContain('Newly Discovered Project Context');
      expect(responseText(2)).toContain('late api rule');
      expect(responseText(3)).not.toContain('Newly Discovered'); // shown once per session
    } finally {
      await ep.close();
    }
  });

  it('a failed read does not use up the context of its folder: the next read there gets it', async () => {
    const ws = workspace();
    ws.settings({ mcp: { excluded: ['shell', 'web'] } });
    ws.file('pkg/GEMINI.md', 'pkg rule');
    const b = ws.file('pkg/b.txt', 'beta');
    const ep = await endpoint(
      reply.calls({
        id: 'r1',
        name: 'filesystem__read_file',
        args: { absolute_path: join(dirname(b), 'missing.txt') },
      }),
      reply.calls({ id: 'r2', name: 'filesystem__read_file', args: { absolute_path: b } }),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'read them'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const reqs = ep.requestsOf('streamGenerateContent');
    const responseText = (i: number) => JSON.stringify(reqs[i]!.body.contents.at(-1));
    expect(responseText(1)).not.toContain('pkg rule');
    expect(responseText(2)).toContain('beta');
    expect(responseText(2)).toContain('pkg rule');
  });
});
