import type { Content, GenerateContentParameters, GenerateContentResponse } from '@google/genai';
import { describe, expect, it } from 'vitest';
import type { ContentGenerator } from '../../../host/core/content-generator.js';
import { checkNextSpeaker } from '../../../host/core/next-speaker.js';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });

/** A generator of the host's own interface that answers generateContent with scripted texts (or errors). */
function generator(answers: (string | Error)[]) {
  const requests: GenerateContentParameters[] = [];
  const g: ContentGenerator = {
    generateContent: async (req) => {
      requests.push(req);
      const a = answers.shift();
      if (a === undefined) throw new Error('unexpected request');
      if (a instanceof Error) throw a;
      return { candidates: [{ content: { role: 'model', parts: [{ text: a }] } }] } as GenerateContentResponse;
    },
    generateContentStream: async () => {
      throw new Error('not used');
    },
    countTokens: async () => ({ totalTokens: 0 }),
  };
  return { g, requests };
}
const ask = (history: Content[], g: ContentGenerator, curated = history) =>
  checkNextSpeaker({ comprehensive: history, curated, generator: g, model: 'm', signal: new AbortController().signal });

describe('checkNextSpeaker', () => {
  it('after function responses, or an empty model turn, the model speaks: no request', async () => {
    const { g, requests } = generator([]);
    const responses: Content = { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] };
    expect(await ask([user('a'), responses], g)).toBe('model');
    expect(await ask([user('a'), { role: 'model', parts: [] }], g)).toBe('model');
    expect(requests).toEqual([]);
  });

  it('when the last curated turn is not the model, there is nothing to decide', async () => {
    const { g, requests } = generator([]);
    expect(await ask([user('a')], g)).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it("asks once with the history and the question, and takes the answer's next_speaker", async () => {
    const { g, requests } = generator([
      '{"reasoning":"r","next_speaker":"model"}',
      '```json\n{"reasoning":"r","next_speaker":"user"}\n```',
    ]);
    expect(await ask([user('a'), model('I will now')], g)).toBe('model');
    expect(await ask([user('a'), model('Done.')], g)).toBe('user');
    const contents = requests[0]?.contents as Content[];
    expect(contents.slice(0, 2)).toEqual([user('a'), model('I will now')]);
    expect(contents).toHaveLength(3);
    expect(contents[2]?.role).toBe('user');
    expect(requests[0]?.config?.responseMimeType).toBe('application/json');
  });

  it('a failed request, text that is not JSON, or an unknown speaker is no decision', async () => {
    const { g } = generator([new Error('503'), 'not json', '{"next_speaker":"assistant"}']);
    for (let i = 0; i < 3; i++) expect(await ask([user('a'), model('b')], g)).toBeUndefined();
  });
});
