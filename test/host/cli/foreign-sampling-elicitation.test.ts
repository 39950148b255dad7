import { describe, expect, it } from 'vitest';
import { SamplingStats, NoticeLimiter } from '../../../host/mcp/sampling-stats.js';
import { reply, type ScriptEntry } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { EVERYTHING } from '../mcp/everything-helpers.js';

/** server-everything's sampling and elicitation tools through `tools call` and `-p`, against the scripted endpoint. */
const sampled = (text: string): ScriptEntry =>
  ({
    method: 'generateContent',
    response: {
      candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 3, totalTokenCount: 10 },
    },
  }) as ScriptEntry;

function everythingWorkspace() {
  const ws = workspace();
  ws.settings({
    ...ONLY(),
    mcpServers: {
      trusted: { command: process.execPath, args: [EVERYTHING], trust: true },
      plain: { command: process.execPath, args: [EVERYTHING] },
    },
  });
  return ws;
}

describe('tools call: a foreign server asks for input or for the model', () => {
  const endpoint = scriptedEndpoints();

  it('a declined elicitation is said on stderr: which server asked and why', async () => {
    const ws = everythingWorkspace();
    const r = await runHost(['tools', 'call', 'plain__trigger-elicitation-request', '{}', '--yolo'], { ws });
    expect(r.stderr).toMatch(
      /MCP server "plain" asked for input \(".*"\); declined: a headless run cannot show forms\./,
    );
  });

  it("a trusted server's sampling uses the configured model (credentials set); an untrusted one is denied and told", async () => {
    const ws = everythingWorkspace();
    const ep = await endpoint(sampled('sampled answer'));
    const ok = await runHost(
      ['tools', 'call', 'trusted__trigger-sampling-request', '{"prompt":"say hi","maxTokens":50}'],
      { ws, url: ep.url },
    );
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('sampled answer');
    expect(ok.stdout).not.toMatch(/no model/);
    expect(ep.requestsOf('generateContent')).toHaveLength(1);

    const denied = await runHost(
      ['tools', 'call', 'plain__trigger-sampling-request', '{"prompt":"x","maxTokens":5}', '--yolo'],
      { ws, url: ep.url },
    );
    expect(denied.stderr).toContain('MCP server "plain" asked to use the model (sampling); denied');
    expect(ep.requestsOf('generateContent')).toHaveLength(1);
  });
});

describe('-p: sampling is counted per server, and a denial loop gives one line with a count', () => {
  const endpoint = scriptedEndpoints();

  it('json stats carry each server’s sampling requests and tokens; repeated denials are one line plus a count', async () => {
    const ws = everythingWorkspace();
    const ask = (server: string, i: number) => ({
      id: `${server}${i}`,
      name: `${server}__trigger-sampling-request`,
      args: { prompt: `p${i}`, maxTokens: 5 },
    });
    const ep = await endpoint(
      reply.calls(ask('trusted', 0), ...Array.from({ length: 6 }, (_, i) => ask('plain', i))),
      sampled('from the model'),
      reply.text('done'),
    );
    const r = await runHost(['-p', 'sample', '-o', 'json', '--yolo'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    const stats = JSON.parse(r.stdout).stats;
    expect(stats.sampling.trusted).toMatchObject({ requests: 1, approved: 1, denied: 0, totalTokens: 10 });
    expect(stats.sampling.plain).toMatchObject({ requests: 6, approved: 0, denied: 6, totalTokens: 0 });
    const lines = r.stderr.split('\n').filter((l) => l.includes('"plain" asked to use the model'));
    expect(lines).toEqual([
      expect.stringContaining('denied: a headless run allows sampling only for trusted servers'),
      expect.stringContaining('5 more times; denied.'),
    ]);
  });

  it('the limiter says the first notice at once and the repeats as one counted line', () => {
    const said: string[] = [];
    const limiter = new NoticeLimiter((m) => said.push(m), 60_000);
    for (let i = 0; i < 1000; i++) limiter.notice('k', 'first', (n) => `${n} more`);
    expect(said).toEqual(['first']);
    limiter.flush();
    expect(said).toEqual(['first', '999 more']);
    const stats = new SamplingStats();
    stats.asked('a');
    stats.answered('a', { promptTokenCount: 2, candidatesTokenCount: 1, totalTokenCount: 3 });
    expect(stats.json()).toEqual({
      a: { requests: 1, approved: 1, denied: 0, failed: 0, promptTokens: 2, outputTokens: 1, totalTokens: 3 },
    });
  });
});
