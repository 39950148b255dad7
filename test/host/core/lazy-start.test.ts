import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/** Aliases the host's debug log reports as connected in one run. */
const connected = (stderr: string): string[] =>
  [...stderr.matchAll(/\[(\w+)\] connected over/g)].map((m) => m[1]!).sort();
const systemText = (body: { systemInstruction: { parts: { text: string }[] } }): string =>
  body.systemInstruction.parts[0]!.text;

describe('servers start on first use once their listings are cached', () => {
  const ws = workspace();
  ws.settings(ONLY('filesystem', 'shell', 'memory'));
  const context = ws.file('GEMINI.md', 'Project rule: be brief.\n');
  ws.file('src/a.ts', 'export const a = 1;\n');
  const endpoint = scriptedEndpoints();

  it('first session starts every server (fills the cache); the next one starts only what it calls', async () => {
    const ep1 = await endpoint(reply.text('one'));
    const r1 = await runHost(['-p', 'x', '-d'], { ws, url: ep1.url });
    expect(r1.code, r1.stderr).toBe(0);
    expect(connected(r1.stderr)).toEqual(['filesystem', 'memory', 'shell']);
    expect(systemText(ep1.requestsOf('streamGenerateContent')[0]!.body)).toContain('Project rule: be brief.');

    const ep2 = await endpoint(
      reply.calls({ id: 'g', name: 'filesystem__glob', args: { pattern: '**/*.ts' } }),
      reply.text('two'),
    );
    const r2 = await runHost(['-p', 'x', '-d'], { ws, url: ep2.url });
    expect(r2.code, r2.stderr).toBe(0);
    expect(r2.stdout).toContain('two');
    // Only the server whose tool ran; the memory context came from the cache.
    expect(connected(r2.stderr)).toEqual(['filesystem']);
    const [first, second] = ep2.requestsOf('streamGenerateContent').map((q) => q.body);
    const names = first!.tools[0].functionDeclarations.map((d: { name: string }) => d.name);
    expect(names).toContain('filesystem__glob');
    expect(systemText(first!)).toContain('Project rule: be brief.');
    expect(JSON.stringify(second!.contents)).toContain('a.ts');
  });

  it('a changed context file is read live from the memory server', async () => {
    writeFileSync(context, 'Project rule: be thorough.\n');
    const ep = await endpoint(reply.text('three'));
    const r = await runHost(['-p', 'x', '-d'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(connected(r.stderr)).toEqual(['memory']);
    const text = systemText(ep.requestsOf('streamGenerateContent')[0]!.body);
    expect(text).toContain('Project rule: be thorough.');
    expect(text).not.toContain('be brief');
  });

  it('startup "eager" starts a server with the session although its listing is cached', async () => {
    const eager = workspace();
    const sh = (startup?: string) => ({
      mcp: { excluded: ['web', 'memory', 'filesystem', 'shell'] },
      mcpServers: {
        sh: { command: process.execPath, args: [shellEntry()], trust: true, ...(startup ? { startup } : {}) },
      },
    });
    const runs = [];
    // One endpoint for all three runs: its URL is part of a third-party server's environment, hence of its cache key.
    const ep = await endpoint();
    for (const settings of [sh(), sh(), sh('eager')]) {
      eager.settings(settings);
      ep.push(reply.text('ok'));
      const r = await runHost(['-p', 'x', '-d'], { ws: eager, url: ep.url });
      expect(r.code, r.stderr).toBe(0);
      runs.push(connected(r.stderr));
    }
    // Fills the cache, then lazy (not started), then eager although cached.
    expect(runs).toEqual([['sh'], [], ['sh']]);
  });
});

function shellEntry(): string {
  return new URL('../../../dist/bin/gemini-mcp-shell.mjs', import.meta.url).pathname;
}
