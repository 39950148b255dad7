import { afterAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../host/core/session.js';
import type { ServerGeminiStreamEvent } from '../../../host/core/events.js';
import {
  aggregateModelParts,
  curateHistory,
  INTERRUPTED_TEXT,
  mergeAdjacent,
  SKIP_THOUGHT_SIGNATURE,
} from '../../../host/core/history.js';
import { parseThought } from '../../../host/core/turn.js';
import { chunk, reply, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ONLY, workspace } from '../../helpers/run-host.js';

async function drain(gen: AsyncGenerator<ServerGeminiStreamEvent>): Promise<ServerGeminiStreamEvent[]> {
  const out: ServerGeminiStreamEvent[] = [];
  for await (const ev of gen) out.push(ev);
  return out;
}

describe('GeminiClient in-process (real runtime, real SDK, scripted endpoint)', async () => {
  const ws = workspace();
  ws.settings(ONLY());
  const ep = await startScriptedGemini([
    reply.text('Hi Ada', '.'),
    { ...reply.text('partial', ' never ends'), hang: true },
    {
      method: 'generateContentStream',
      response: [chunk([{ text: '**Recall** the name', thought: true }]), chunk([{ text: 'Your name is Ada.' }], true)],
    },
  ]);
  const session = await createSession({
    cwd: ws.cwd,
    interactive: false,
    env: {
      ...process.env,
      GEMINI_CLI_HOME: ws.home,
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: ep.url,
      GEMINI_MODEL: '',
    },
  });
  afterAll(async () => {
    await session.close();
    await ep.close();
  });

  it('keeps history across messages and yields typed events; an aborted stream keeps the words and what was said, marked cut off', async () => {
    const ac = new AbortController();
    const first = await drain(session.client.sendMessageStream([{ text: 'I am Ada' }], ac.signal, 'p1'));
    expect(first.map((e) => e.type)).toEqual(['content', 'content', 'finished', 'usage']);
    const cancel = new AbortController();
    const aborted: ServerGeminiStreamEvent[] = [];
    for await (const ev of session.client.sendMessageStream([{ text: 'tell me a long story' }], cancel.signal, 'p1b')) {
      aborted.push(ev);
      if (ev.type === 'content') cancel.abort();
    }
    expect(aborted.map((e) => e.type)).toEqual(['content', 'user_cancelled']);
    expect(session.client.getHistory()).toHaveLength(4);
    const second = await drain(session.client.sendMessageStream([{ text: 'What is my name?' }], ac.signal, 'p2'));
    expect(second.map((e) => e.type)).toEqual(['thought', 'content', 'finished', 'usage']);
    expect(second[0]).toEqual({ type: 'thought', value: { subject: 'Recall', description: 'the name' } });
    const req = ep.requestsOf('streamGenerateContent')[2]!.body; // [1] was the aborted one
    expect(req.contents).toEqual([
      { role: 'user', parts: [{ text: 'I am Ada' }] },
      { role: 'model', parts: [{ text: 'Hi Ada.' }] },
      { role: 'user', parts: [{ text: 'tell me a long story' }] },
      { role: 'model', parts: [{ text: expect.stringMatching(/^partial/) }, { text: INTERRUPTED_TEXT }] },
      { role: 'user', parts: [{ text: 'What is my name?' }] },
    ]);
    // thought parts never stored
    expect(session.client.getHistory().at(-1)).toEqual({ role: 'model', parts: [{ text: 'Your name is Ada.' }] });
  });

  it('an already-aborted signal yields user_cancelled and leaves history unchanged', async () => {
    const before = session.client.getHistory().length;
    const ac = new AbortController();
    ac.abort();
    const evs = await drain(session.client.sendMessageStream([{ text: 'x' }], ac.signal, 'p3'));
    expect(evs).toEqual([{ type: 'user_cancelled' }]);
    expect(session.client.getHistory()).toHaveLength(before);
  });
});

describe('history rules', () => {
  it('curates out runs of model turns containing an invalid turn, keeps user turns', () => {
    const h = [
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'model', parts: [{ text: 'ok' }] },
      { role: 'model', parts: [{ text: '' }] },
      { role: 'user', parts: [{ text: 'b' }] },
      { role: 'model', parts: [] },
    ];
    expect(curateHistory(h)).toEqual([h[0], h[3], h[4]]);
  });

  it('aggregates chunks: drops thoughts, joins text, signs the first call', () => {
    expect(
      aggregateModelParts([
        { text: 'think', thought: true },
        { text: 'Hel' },
        { text: 'lo' },
        { functionCall: { name: 'a__b', args: {} } },
        { functionCall: { name: 'a__c', args: {} } },
      ]),
    ).toEqual([
      { text: 'Hello' },
      { functionCall: { name: 'a__b', args: {} }, thoughtSignature: SKIP_THOUGHT_SIGNATURE },
      { functionCall: { name: 'a__c', args: {} } },
    ]);
  });

  it('merges adjacent same-role turns', () => {
    expect(
      mergeAdjacent([
        { role: 'user', parts: [{ text: 'a' }] },
        { role: 'user', parts: [{ text: 'b' }] },
      ]),
    ).toEqual([{ role: 'user', parts: [{ text: 'a' }, { text: 'b' }] }]);
  });

  it('parses thought subjects', () => {
    expect(parseThought('no subject here')).toEqual({ subject: '', description: 'no subject here' });
  });
});
