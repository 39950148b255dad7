import type { GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { apiErrorMessage, MISSING_KEY_MESSAGE, responseText, WebModel } from '../../../servers/web/model.js';

describe('responseText', () => {
  it("the first candidate's text parts joined, thoughts left out", () => {
    const res = {
      candidates: [
        {
          content: {
            parts: [
              { text: 'thinking', thought: true },
              { text: 'Answer ' },
              { functionCall: { name: 'f' } },
              { text: 'here.' },
            ],
          },
        },
        { content: { parts: [{ text: 'second candidate' }] } },
      ],
    } as GenerateContentResponse;
    expect(responseText(res)).toBe('Answer here.');
    expect(responseText({} as GenerateContentResponse)).toBe('');
  });
});

describe('apiErrorMessage', () => {
  it("the SDK's JSON error body read as its message, with code and status", () => {
    const body = JSON.stringify({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded' } });
    expect(apiErrorMessage(new Error(body))).toBe('Quota exceeded (429 RESOURCE_EXHAUSTED)');
    expect(apiErrorMessage(new Error(JSON.stringify({ error: { message: 'Bad' } })))).toBe('Bad');
  });

  it('anything else as it is', () => {
    expect(apiErrorMessage(new Error('fetch failed'))).toBe('fetch failed');
    expect(apiErrorMessage(new Error('{"other":1}'))).toBe('{"other":1}');
    expect(apiErrorMessage('plain')).toBe('plain');
  });
});

describe('WebModel without a key', () => {
  it('generate refuses with the message that says which variables to set', async () => {
    const m = new WebModel({ model: 'gemini-2.5-flash' });
    expect(m.hasKey).toBe(false);
    await expect(m.generate('q', [], new AbortController().signal)).rejects.toThrow(MISSING_KEY_MESSAGE);
  });

  it('answer falls back to MCP sampling when the client offers it, and refuses when it does not', async () => {
    const m = new WebModel({ model: 'm' });
    const sent: unknown[] = [];
    const ctx = {
      signal: new AbortController().signal,
      clientSupportsSampling: true,
      sendRequest: async (req: unknown) => {
        sent.push(req);
        return {
          role: 'assistant',
          model: 'x',
          content: [
            { type: 'text', text: 'from ' },
            { type: 'image', data: '', mimeType: 'image/png' },
            { type: 'text', text: 'the client' },
          ],
        };
      },
    };
    expect(await m.answer('summarise', ctx as never)).toBe('from the client');
    expect(sent).toEqual([
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'summarise' } }],
          maxTokens: 8192,
          includeContext: 'none',
        },
      },
    ]);
    await expect(m.answer('q', { ...ctx, clientSupportsSampling: false } as never)).rejects.toThrow(
      MISSING_KEY_MESSAGE,
    );
  });
});
