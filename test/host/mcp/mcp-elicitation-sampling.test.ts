import { afterAll, describe, expect, it } from 'vitest';
import { ClientRequests, type ClientAsker } from '../../../host/mcp/client-requests.js';
import { buildContent, initialText, type FormRequest } from '../../../host/mcp/elicitation-form.js';
import { createGenAiContentGenerator } from '../../../host/core/content-generator.js';
import { startScriptedGemini, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { allText, everythingHarness, type Transport } from './everything-helpers.js';

const h = everythingHarness();
const endpoints: ScriptedGemini[] = [];
afterAll(() => Promise.all(endpoints.map((e) => e.close())));

/** An asker that plays the user: fills the form as it was shown (defaults), plus `typed`. */
function user(
  answer: 'accept' | 'decline' | 'cancel',
  typed: Record<string, string> = {},
  sampling: 'once' | 'always' | 'deny' = 'once',
) {
  const forms: FormRequest[] = [];
  const samplings: string[] = [];
  const asker: ClientAsker = {
    fillForm: async (req) => {
      forms.push(req);
      if (answer !== 'accept') return { action: answer };
      const texts = Object.fromEntries(req.form.fields.map((f) => [f.key, typed[f.key] ?? initialText(f)]));
      const built = buildContent(req.form, texts);
      if (!built.ok) throw new Error(`form invalid: ${JSON.stringify(built.errors)}`);
      return { action: 'accept', content: built.content };
    },
    approveSampling: async (req) => {
      samplings.push(`${req.server}: ${req.summary}`);
      return sampling;
    },
  };
  return { asker, forms, samplings };
}

function requests(asker?: ClientAsker, trusted = false, notes: string[] = []) {
  const r = new ClientRequests({ trusted: () => trusted, notify: (m) => notes.push(m) });
  if (asker) r.setAsker(asker);
  return r;
}

describe.each<Transport>(['stdio', 'streamableHttp', 'sse'])('server-everything over %s', (transport) => {
  it('elicitation: the form shows the schema; accept sends typed values and the defaults', async () => {
    const u = user('accept', { name: 'Ada Lovelace', email: 'ada@example.com', check: 'yes' });
    const m = await h.started([await h.config(transport)], { clientRequests: requests(u.asker) });
    const text = allText(await m.callTool('everything', 'trigger-elicitation-request', {}));
    expect(text).toContain('User provided the requested information');
    const raw = JSON.parse(text.slice(text.indexOf('{')));
    expect(raw.action).toBe('accept');
    expect(raw.content).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      check: true,
      integer: 42,
      number: 3.14,
      firstLine: 'It was a dark and stormy night.',
      untitledSingleSelectEnum: 'Monica',
      titledSingleSelectEnum: 'hero-1',
      untitledMultipleSelectEnum: ['Guitar'],
      legacyTitledEnum: 'pet-1',
    });
    const form = u.forms[0]!.form;
    expect(u.forms[0]!.server).toBe('everything');
    const byKey = Object.fromEntries(form.fields.map((f) => [f.key, f]));
    expect(byKey.name).toMatchObject({ kind: 'string', required: true, label: 'String' });
    expect(byKey.email).toMatchObject({ kind: 'string', format: 'email' });
    expect(byKey.integer).toMatchObject({ kind: 'integer', minimum: 1, maximum: 100, default: 42 });
    expect(byKey.titledSingleSelectEnum!.options!.map((o) => o.label)).toEqual([
      'Superman',
      'Green Lantern',
      'Wonder Woman',
    ]);
    expect(byKey.legacyTitledEnum!.options![1]).toEqual({ value: 'pet-2', label: 'Dogs' });
    expect(byKey.titledMultipleSelectEnum).toMatchObject({ kind: 'multi', minItems: 1, maxItems: 3 });
  });

  it('elicitation: decline and cancel reach the server as the spec actions', async () => {
    for (const action of ['decline', 'cancel'] as const) {
      const m = await h.started([await h.config(transport, `e${action}`)], {
        clientRequests: requests(user(action).asker),
      });
      const text = allText(await m.callTool(`e${action}`, 'trigger-elicitation-request', {}));
      expect(JSON.parse(text.slice(text.indexOf('{'))).action).toBe(action);
    }
  });

  it('sampling: approved once, answered by the configured Gemini model through @google/genai', async () => {
    const ep = await startScriptedGemini([
      {
        method: 'generateContent',
        response: {
          candidates: [
            { content: { role: 'model', parts: [{ text: 'sampled answer' }] }, finishReason: 'STOP', index: 0 },
          ],
          modelVersion: 'gemini-2.5-flash',
        },
      },
    ]);
    endpoints.push(ep);
    const u = user('accept');
    const cr = requests(u.asker);
    cr.setModel(
      await createGenAiContentGenerator({ kind: 'gemini-api-key', apiKey: 'k', baseUrl: ep.url }, 'test'),
      () => 'gemini-2.5-flash',
    );
    const m = await h.started([await h.config(transport)], { clientRequests: cr });
    const text = allText(
      await m.callTool('everything', 'trigger-sampling-request', { prompt: 'say hi', maxTokens: 50 }),
    );
    expect(text).toContain('sampled answer');
    expect(JSON.parse(text.slice(text.indexOf('{')))).toMatchObject({
      role: 'assistant',
      model: 'gemini-2.5-flash',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'sampled answer' },
    });
    expect(u.samplings[0]).toContain('everything: system: You are a helpful test server.');
    const body = ep.requestsOf('generateContent')[0]!.body;
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Resource trigger-sampling-request context: say hi' }] },
    ]);
    expect(body.systemInstruction.parts[0].text).toBe('You are a helpful test server.');
    expect(body.generationConfig).toMatchObject({ maxOutputTokens: 50, temperature: 0.7 });
  });
});

describe('headless and trust', () => {
  it('no asker: forms are declined with a message; sampling is denied for an untrusted server', async () => {
    const notes: string[] = [];
    const m = await h.started([await h.config('stdio')], { clientRequests: requests(undefined, false, notes) });
    const form = allText(await m.callTool('everything', 'trigger-elicitation-request', {}));
    expect(JSON.parse(form.slice(form.indexOf('{'))).action).toBe('decline');
    expect(notes[0]).toMatch(/MCP server "everything" asked for input .*declined: a headless run cannot show forms/);
    const r = await m.callTool('everything', 'trigger-sampling-request', { prompt: 'x' }).catch((e) => e);
    expect(r.isError ?? true).toBe(true);
    expect(String(r.message ?? allText(r))).toMatch(/rejected the sampling request|no model/);
  });

  it('"always for this server" is asked once; a trusted server is never asked', async () => {
    const ep = await startScriptedGemini(
      Array.from({ length: 3 }, () => ({
        method: 'generateContent',
        response: {
          candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'MAX_TOKENS', index: 0 }],
        },
      })),
    );
    endpoints.push(ep);
    const gen = await createGenAiContentGenerator({ kind: 'gemini-api-key', apiKey: 'k', baseUrl: ep.url }, 'test');
    const u = user('accept', {}, 'always');
    const cr = requests(u.asker);
    cr.setModel(gen, () => 'gemini-2.5-flash');
    const m = await h.started([await h.config('stdio')], { clientRequests: cr });
    for (let i = 0; i < 2; i++)
      expect(allText(await m.callTool('everything', 'trigger-sampling-request', { prompt: 'x' }))).toContain(
        'maxTokens',
      );
    expect(u.samplings).toHaveLength(1);
    const trusted = requests(undefined, true);
    trusted.setModel(gen, () => 'gemini-2.5-flash');
    const t = await h.started([await h.config('stdio', 'trusted', { trust: true })], { clientRequests: trusted });
    expect(allText(await t.callTool('trusted', 'trigger-sampling-request', { prompt: 'x' }))).toContain('"text": "ok"');
  });
});
