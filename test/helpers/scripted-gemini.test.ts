import { afterAll, describe, expect, it } from 'vitest';
import { GoogleGenAI } from '@google/genai';
import { reply, startScriptedGemini } from './scripted-gemini.mjs';

describe('scripted Gemini endpoint through the real SDK', async () => {
  const ep = await startScriptedGemini([
    reply.text('Hello ', 'world'),
    reply.calls({ id: 'c1', name: 'filesystem__glob', args: { pattern: '**/*.ts' } }),
    reply.json({ next_speaker: 'user', reasoning: 'done' }),
    reply.error(429, 'slow down', {
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
    }),
  ]);
  afterAll(() => ep.close());
  const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: ep.url } });

  it('streams text chunks and records the request', async () => {
    const stream = await ai.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'hi',
      config: { systemInstruction: 'sys' },
    });
    const texts: string[] = [];
    for await (const c of stream) texts.push(c.candidates?.[0]?.content?.parts?.[0]?.text ?? '');
    expect(texts.join('')).toBe('Hello world');
    expect(ep.requests[0].body.systemInstruction.parts[0].text).toBe('sys');
    expect(ep.requests[0].headers['x-goog-api-key']).toBe('test-key');
  });

  it('streams a function call whole', async () => {
    const stream = await ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'go' });
    const calls = [];
    for await (const c of stream) calls.push(...(c.functionCalls ?? []));
    expect(calls).toEqual([{ id: 'c1', name: 'filesystem__glob', args: { pattern: '**/*.ts' } }]);
  });

  it('answers generateContent with JSON and errors as ApiError', async () => {
    const r = await ai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'q' });
    expect(JSON.parse(r.text ?? '')).toMatchObject({ next_speaker: 'user' });
    await expect(ai.models.generateContentStream({ model: 'gemini-2.5-flash', contents: 'x' })).rejects.toMatchObject({
      status: 429,
    });
  });
});
