import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { textOf } from '../../helpers/mcp.js';
import { NS, answer, gemini, startWeb } from './harness.js';
import { startSite, type TestSite } from './site.js';

let site: TestSite;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site.close());

const DENIED = '[Operation Cancelled] Reason: User denied execution.';

/** Checklist items 2, 9 and 10 for web_fetch, with an elicitation-capable client. */
describe('web_fetch confirmation conformance', () => {
  it('validation errors and all-skipped prompts return without asking', async () => {
    const ep = await gemini(() => answer('unused'));
    const asked: ElicitRequest['params'][] = [];
    const s = await startWeb(ep, [], {
      elicit: (p) => (asked.push(p), { action: 'accept', content: { decision: 'proceed_once' } }),
    });
    for (const prompt of [' ', 'get ftp://x.org/f', 'no url here', 'read http://localhost/x']) {
      const r = await s.call('web_fetch', { prompt });
      expect(r.isError, prompt).toBe(true);
      expect(r._meta?.[`${NS}/errorType`]).toBeTruthy();
    }
    for (const args of [{}, { prompt: 5 }]) {
      const r = await s.call('web_fetch', args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain('prompt');
      expect(r._meta?.[`${NS}/errorType`]).toBe('invalid_tool_params');
    }
    expect(asked).toHaveLength(0);
    expect(ep.requests).toHaveLength(0);
    const { tools } = await s.client.listTools();
    for (const t of tools) expect(t.inputSchema.additionalProperties, t.name).not.toBe(false);
  });

  it('preapproved calls run without a request; `modify` is not consent', async () => {
    const ep = await gemini(() => answer('fetched answer'));
    const asked: ElicitRequest['params'][] = [];
    const s = await startWeb(ep, [], {
      elicit: (p) => (asked.push(p), { action: 'accept', content: { decision: 'modify', content: 'other' } }),
    });
    const modified = await s.call('web_fetch', { prompt: 'read https://docs.invalid/a' });
    expect(modified.isError).toBe(true);
    expect(textOf(modified)).toBe(DENIED);
    expect(modified._meta?.[`${NS}/errorType`]).toBe('execution_failed');
    expect(asked).toHaveLength(1);
    expect(ep.requests).toHaveLength(0);
    const pre = await s.call(
      'web_fetch',
      { prompt: 'read https://docs.invalid/a', wait_for_previous: true },
      { [`${NS}/preapproved`]: true },
    );
    expect(textOf(pre)).toBe('<untrusted_context>\nfetched answer\n</untrusted_context>');
    expect(asked).toHaveLength(1);
  });

  it('a declined call does not use up the per-host request budget', async () => {
    const ep = await gemini(() => answer('fine'));
    let action: 'decline' | 'accept' = 'decline';
    const s = await startWeb(ep, ['--allow-private-hosts'], {
      elicit: () => (action === 'accept' ? { action, content: { decision: 'proceed_once' } } : { action }),
    });
    for (let i = 0; i < 11; i++)
      expect(textOf(await s.call('web_fetch', { prompt: `read ${site.url}/p/${i}` }))).toBe(DENIED);
    expect(site.hits.filter((h) => h.startsWith('/p/'))).toHaveLength(0);
    action = 'accept';
    const ok = await s.call('web_fetch', { prompt: `read ${site.url}/p/ok` });
    expect(textOf(ok)).toBe('<untrusted_context>\nfine\n</untrusted_context>');
  });
});
