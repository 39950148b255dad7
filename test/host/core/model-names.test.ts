import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

/** A 429 as the Gemini API sends it when a model's daily quota is used up. */
const dailyQuota = (model: string) =>
  reply.error(429, `You exceeded your current quota. Quota exceeded for metric: generate_content, model: ${model}`, {
    details: [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [{ quotaMetric: 'generate_content_requests', quotaId: 'GenerateRequestsPerDayPerProjectPerModel' }],
      },
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'QUOTA_EXHAUSTED', domain: 'googleapis.com' },
    ],
  });

describe("model names: Gemini CLI's aliases and default, and the fallback on a usage limit", () => {
  const ws = workspace();
  ws.settings(ONLY());
  const endpoint = scriptedEndpoints();

  it.each([
    ['pro', 'gemini-3-pro-preview'],
    ['flash', 'gemini-3-flash-preview'],
    ['flash-lite', 'gemini-3.1-flash-lite'],
    ['auto', 'gemini-3-pro-preview'],
    ['gemini-2.5-pro', 'gemini-2.5-pro'],
  ])('-m %s is sent as models/%s', async (alias, model) => {
    const ep = await endpoint(reply.text('hi'));
    const r = await runHost(['-p', 'hello', '-m', alias], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('hi\n');
    const [req] = ep.requestsOf('streamGenerateContent');
    expect(req!.url).toContain(`/models/${model}:streamGenerateContent`);
  });

  it('with no model named, the default is Auto (gemini-3-pro-preview), as in Gemini CLI', async () => {
    const ep = await endpoint(reply.text('hi'));
    const r = await runHost(['-p', 'hello', '-o', 'json'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(ep.requestsOf('streamGenerateContent')[0]!.model).toBe('gemini-3-pro-preview');
    expect(Object.keys(JSON.parse(r.stdout).stats.models)).toEqual(['gemini-3-pro-preview']);
  });

  it('a daily quota error on the default model continues on the fallback, with one line saying so', async () => {
    const ep = await endpoint(dailyQuota('gemini-3-pro-preview'), reply.text('answer from flash'));
    const r = await runHost(['-p', 'hello'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('answer from flash\n');
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines).toEqual([
      'Usage limit reached for gemini-3-pro-preview. Switched to fallback model gemini-3-flash-preview.',
    ]);
    const models = ep.requestsOf('streamGenerateContent').map((q) => q.model);
    expect(models).toEqual(['gemini-3-pro-preview', 'gemini-3-flash-preview']);
  });

  it('a quota error on a model with no fallback ends the turn with the error, without retrying', async () => {
    const ep = await endpoint(dailyQuota('gemini-2.5-flash'), reply.text('never'));
    const r = await runHost(['-p', 'hello', '-m', 'gemini-2.5-flash'], { ws, url: ep.url });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('429');
    expect(r.stderr).not.toContain('Switched to fallback model');
    expect(ep.requestsOf('streamGenerateContent').map((q) => q.model)).toEqual(['gemini-2.5-flash']);
  });
});
