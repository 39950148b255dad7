import type { Content } from '@google/genai';
import { afterAll, describe, expect, it } from 'vitest';
import { answerAll } from '../../../host/core/client.js';
import type { ServerGeminiStreamEvent } from '../../../host/core/events.js';
import { createSession, type Session } from '../../../host/core/session.js';
import { chunk, reply, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ONLY, workspace } from '../../helpers/run-host.js';

type Endpoint = Awaited<ReturnType<typeof startScriptedGemini>>;

/** What the API demands: alternating roles, no empty model turn, every call answered by id. */
function expectWellFormed(contents: Content[]): void {
  contents.forEach((c, i) => {
    if (i > 0) expect(c.role, `roles alternate at ${i}`).not.toBe(contents[i - 1]!.role);
    if (c.role === 'model') expect(c.parts?.length, `model turn ${i} has parts`).toBeGreaterThan(0);
    const calls = (c.parts ?? []).filter((p) => p.functionCall).map((p) => p.functionCall!.id);
    if (c.role === 'model' && calls.length) {
      const answers = (contents[i + 1]?.parts ?? [])
        .filter((p) => p.functionResponse)
        .map((p) => p.functionResponse!.id);
      expect(answers, `calls of model turn ${i} answered`).toEqual(calls);
    }
  });
}

async function drain(gen: AsyncGenerator<ServerGeminiStreamEvent>, onEvent?: (e: ServerGeminiStreamEvent) => void) {
  const out: ServerGeminiStreamEvent[] = [];
  for await (const ev of gen) {
    out.push(ev);
    onEvent?.(ev);
  }
  return out;
}

describe('history stays valid after errors, cancellation and limits (no servers: unknown tools are answered by the scheduler)', () => {
  const open: { session: Session; ep: Endpoint }[] = [];
  afterAll(async () => {
    for (const o of open) {
      await o.session.close();
      await o.ep.close();
    }
  });
  async function start(script: unknown[], settings: Record<string, unknown> = {}) {
    const ws = workspace();
    ws.settings({ ...ONLY(), general: { maxAttempts: 1 }, ...settings });
    const ep = await startScriptedGemini(script as never);
    const env = {
      ...process.env,
      GEMINI_CLI_HOME: ws.home,
      GEMINI_API_KEY: 'k',
      GOOGLE_GEMINI_BASE_URL: ep.url,
      GEMINI_MODEL: '',
      GEMINI_MCP_RETRY_DELAY_MS: '1',
    };
    const session = await createSession({ cwd: ws.cwd, interactive: false, env });
    open.push({ session, ep });
    return { session, ep, client: session.client };
  }
  const lastStreamBody = (ep: Endpoint) =>
    ep.requestsOf('streamGenerateContent').at(-1)!.body as { contents: Content[] };

  it('a failed function-response send keeps the responses; the next message is a valid request', async () => {
    const { ep, client } = await start([
      reply.calls({ id: 'c1', name: 'nope__a' }, { id: 'c2', name: 'nope__b' }),
      reply.error(400, 'bad request'),
      reply.text('fine'),
    ]);
    const ac = new AbortController();
    const first = await drain(client.sendMessageStream([{ text: 'go' }], ac.signal, 'p1'));
    expect(first.at(-1)).toMatchObject({ type: 'error', value: { error: { status: 400 } } });
    expectWellFormed(client.getHistory());
    await drain(client.sendMessageStream([{ text: 'again' }], ac.signal, 'p2'));
    const contents = lastStreamBody(ep).contents;
    expectWellFormed(contents);
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
    expect(contents[3]!.parts![0]!.text).toContain('interrupted');
  });

  it('cancelling the stream that answers the tool calls leaves them answered', async () => {
    const { ep, client } = await start([
      reply.calls({ id: 'k1', name: 'nope__a' }),
      { ...reply.text('partial'), hang: true },
      reply.text('ok'),
    ]);
    const cancel = new AbortController();
    const evs = await drain(client.sendMessageStream([{ text: 'go' }], cancel.signal, 'p1'), (e) => {
      if (e.type === 'content') cancel.abort();
    });
    expect(evs.at(-1)).toEqual({ type: 'user_cancelled' });
    expectWellFormed(client.getHistory());
    await drain(client.sendMessageStream([{ text: 'next' }], new AbortController().signal, 'p2'));
    expectWellFormed(lastStreamBody(ep).contents);
  });

  it('reaching the turn limit right after tools still records their answers', async () => {
    const { client } = await start([reply.calls({ id: 't1', name: 'nope__a' })], { model: { maxSessionTurns: 1 } });
    const evs = await drain(client.sendMessageStream([{ text: 'go' }], new AbortController().signal, 'p1'));
    expect(evs.at(-1)).toMatchObject({ type: 'max_session_turns', value: { scope: 'session' } });
    const history = client.getHistory();
    expectWellFormed(history);
    expect(history.at(-1)!.parts![0]!.functionResponse).toMatchObject({ id: 't1', name: 'nope__a' });
  });

  it('an empty continuation after a function response is retried, never stored as an empty model turn', async () => {
    const empty = { method: 'generateContentStream', response: [chunk([{ text: '' }])] }; // no finishReason either
    const { ep, client } = await start([reply.calls({ id: 'e1', name: 'nope__a' }), empty, reply.text('answer')], {
      general: { maxAttempts: 1 },
    });
    const evs = await drain(client.sendMessageStream([{ text: 'go' }], new AbortController().signal, 'p1'));
    expect(evs.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(3);
    expectWellFormed(client.getHistory());
    expect(client.getHistory().at(-1)).toEqual({ role: 'model', parts: [{ text: 'answer' }] });
  });

  it('answerAll gives every request exactly one answer, in request order', () => {
    const req = (callId: string) => ({
      callId,
      name: `s__${callId}`,
      args: {},
      isClientInitiated: false,
      promptId: 'p',
    });
    const done = {
      request: req('b'),
      status: 'success' as const,
      startTime: 0,
      response: {
        callId: 'b',
        responseParts: [{ functionResponse: { id: 'b', name: 's__b', response: { output: 'ok' } } }],
      },
    };
    const parts = answerAll([req('a'), req('b'), req('c')], [done], 'did not complete');
    expect(parts.map((p) => [p.functionResponse!.id, p.functionResponse!.name])).toEqual([
      ['a', 's__a'],
      ['b', 's__b'],
      ['c', 's__c'],
    ]);
    expect(parts[0]!.functionResponse!.response).toEqual({ error: 'did not complete' });
  });
});
