import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { estimateTokens, findSplitPoint, tokenLimit } from '../../../host/core/compression.js';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const call = (id: string): Content => ({ role: 'model', parts: [{ functionCall: { id, name: 't', args: {} } }] });
const answer = (id: string, output: string): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id, name: 't', response: { output } } }],
});

describe('compression: the pure parts', () => {
  it('context windows by model, 1M tokens unless known larger', () => {
    expect(tokenLimit('gemini-2.5-pro')).toBe(1_048_576);
    expect(tokenLimit('gemini-1.5-pro-002')).toBe(2_097_152);
  });

  it('estimates about four characters a token, media at a fixed cost', () => {
    expect(estimateTokens([user('x'.repeat(400))])).toBe(100);
    const image: Content = { role: 'user', parts: [{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }] };
    expect(estimateTokens([image])).toBe(258);
    expect(estimateTokens([])).toBe(0);
  });

  it('splits at the first plain user message once the older part holds 1 - keep of the size', () => {
    const h = [user('a'.repeat(100)), model('b'.repeat(100)), user('c'.repeat(100)), model('d'.repeat(100))];
    // Keeping 60 %: the older part must hold 40 %, and the second exchange starts after 50 %.
    expect(findSplitPoint(h, 0.6)).toBe(2);
    // Keeping 30 % (the default): no boundary is late enough, and a finished answer ends it, so all may go.
    expect(findSplitPoint(h)).toBe(4);
  });

  it('never starts the kept part at a function response', () => {
    const h = [user('q'), call('1'), answer('1', 'o'.repeat(5000)), model('done'), user('next'), model('ok')];
    const split = findSplitPoint(h);
    expect(h[split]?.role === 'user' && h[split]?.parts?.[0]?.text).toBeTruthy();
    expect(split).toBe(4);
  });

  it('may take the whole history when it ends in a finished answer, none when it ends in a call', () => {
    expect(findSplitPoint([user('q'.repeat(100)), model('a')])).toBe(2);
    expect(findSplitPoint([user('q'.repeat(100)), call('1')])).toBe(0);
  });
});
