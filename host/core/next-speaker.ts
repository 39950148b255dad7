import type { Content } from '@google/genai';
import type { ContentGenerator } from './content-generator.js';
import { mergeAdjacent } from './history.js';
import { NEXT_SPEAKER_PROMPT } from './prompts.js';
import { retryWithBackoff, type RetryOptions } from './retry.js';
import { withRequestSignal } from './request-signal.js';

export type NextSpeaker = 'user' | 'model';

const RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    reasoning: { type: 'string', description: 'Why this speaker is next, in one sentence.' },
    next_speaker: { type: 'string', enum: ['user', 'model'] },
  },
  required: ['reasoning', 'next_speaker'],
};

/**
 * After a turn without function calls: does the model want to continue? Short-circuits without a request
 * where the history already decides; otherwise one `generateContent` exchange. Any failure → no decision.
 */
export async function checkNextSpeaker(opts: {
  comprehensive: Content[];
  curated: Content[];
  generator: ContentGenerator;
  model: string;
  signal: AbortSignal;
  retry?: Omit<RetryOptions, 'signal'>;
}): Promise<NextSpeaker | undefined> {
  const { comprehensive, curated } = opts;
  const lastAll = comprehensive[comprehensive.length - 1];
  if (lastAll?.role === 'user' && lastAll.parts?.some((p) => p.functionResponse)) return 'model';
  if (lastAll?.role === 'model' && (lastAll.parts ?? []).length === 0) return 'model';
  const lastCurated = curated[curated.length - 1];
  if (lastCurated?.role !== 'model') return undefined;
  try {
    const request = () =>
      withRequestSignal(opts.signal, (abortSignal) =>
        opts.generator.generateContent({
          model: opts.model,
          contents: mergeAdjacent([...curated, { role: 'user', parts: [{ text: NEXT_SPEAKER_PROMPT }] }]),
          config: { abortSignal, responseMimeType: 'application/json', responseJsonSchema: RESPONSE_SCHEMA },
        }),
      );
    const res = opts.retry ? await retryWithBackoff(request, { ...opts.retry, signal: opts.signal }) : await request();
    const text = (res.candidates?.[0]?.content?.parts ?? [])
      .filter((p) => !p.thought && typeof p.text === 'string')
      .map((p) => p.text)
      .join('')
      .trim()
      .replace(/^```(?:json)?\s*|\s*```$/g, '');
    const parsed = JSON.parse(text) as { next_speaker?: unknown };
    return parsed.next_speaker === 'model' || parsed.next_speaker === 'user' ? parsed.next_speaker : undefined;
  } catch {
    return undefined;
  }
}
