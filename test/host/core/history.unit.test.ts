import type { Content, Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  aggregateModelParts,
  curateHistory,
  isFunctionResponseContent,
  isValidModelContent,
  mergeAdjacent,
  SKIP_THOUGHT_SIGNATURE,
} from '../../../host/core/history.js';

const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (...parts: Part[]): Content => ({ role: 'model', parts });

describe('isValidModelContent', () => {
  it('an empty part, or one holding only an empty text (with or without a signature), is invalid', () => {
    expect(isValidModelContent(model({ text: 'ok' }))).toBe(true);
    expect(isValidModelContent(model({}))).toBe(false);
    expect(isValidModelContent(model({ text: '' }))).toBe(false);
    expect(isValidModelContent(model({ text: '', thoughtSignature: 'sig' }))).toBe(false);
  });

  it('an empty thought, an empty text beside a call, and no parts at all are tolerated', () => {
    expect(isValidModelContent(model({ text: '', thought: true }))).toBe(true);
    expect(isValidModelContent(model({ text: '', functionCall: { name: 'f' } }))).toBe(true);
    expect(isValidModelContent({ role: 'model' })).toBe(true);
  });
});

describe('curateHistory', () => {
  it('drops a whole run of model turns when one of them is invalid; user turns always stay', () => {
    const history = [user('a'), model({ text: 'fine' }), model({ text: '' }), user('b'), model({ text: 'kept' })];
    expect(curateHistory(history)).toEqual([user('a'), user('b'), model({ text: 'kept' })]);
  });
});

describe('mergeAdjacent', () => {
  it('joins same-role neighbours without changing the input', () => {
    const history = [user('a'), user('b'), model({ text: 'c' }), model({ text: 'd' }), user('e')];
    const before = JSON.stringify(history);
    expect(mergeAdjacent(history)).toEqual([
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
      { role: 'model', parts: [{ text: 'c' }, { text: 'd' }] },
      { role: 'user', parts: [{ text: 'e' }] },
    ]);
    expect(JSON.stringify(history)).toBe(before);
  });

  it('passes a content with no same-role neighbour as it is, and makes a new one only for what it merges', () => {
    const history = [user('a'), model({ text: 'b' }), user('c'), user('d'), { role: 'model' }, model({ text: 'e' })];
    const out = mergeAdjacent(history);
    // Not copied: a long history is merged before every request.
    expect(out[0]).toBe(history[0]);
    expect(out[1]).toBe(history[1]);
    expect(out[2]).not.toBe(history[2]);
    expect(out[2]).toEqual({ role: 'user', parts: [{ text: 'c' }, { text: 'd' }] });
    expect(history[2]).toEqual(user('c'));
    // A content without parts is sent with an empty list, and what follows it joins that new list.
    expect(out[3]).toEqual({ role: 'model', parts: [{ text: 'e' }] });
    expect(history[4]).toEqual({ role: 'model' });
    expect(out).toHaveLength(4);
  });
});

describe('aggregateModelParts', () => {
  it('drops thoughts and empty text, joins adjacent plain text', () => {
    expect(
      aggregateModelParts([{ text: 'thinking', thought: true }, { text: 'Hel' }, { text: '' }, { text: 'lo' }]),
    ).toEqual([{ text: 'Hello' }]);
  });

  it('text with a signature is not merged into its neighbour; a bare signature carrier is dropped', () => {
    expect(
      aggregateModelParts([{ text: 'a' }, { text: 'b', thoughtSignature: 's' }, { text: '', thoughtSignature: 't' }]),
    ).toEqual([{ text: 'a' }, { text: 'b', thoughtSignature: 's' }]);
  });

  it('the first call without a signature gets the skip sentinel; later calls and signed ones are left', () => {
    const out = aggregateModelParts([
      { functionCall: { name: 'a', args: {} } },
      { functionCall: { name: 'b', args: {} } },
    ]);
    expect(out[0]?.thoughtSignature).toBe(SKIP_THOUGHT_SIGNATURE);
    expect(out[1]?.thoughtSignature).toBeUndefined();
    const signed = aggregateModelParts([{ functionCall: { name: 'a' }, thoughtSignature: 'real' }]);
    expect(signed[0]?.thoughtSignature).toBe('real');
  });

  it('does not change the parts it was given', () => {
    const call: Part = { functionCall: { name: 'a' } };
    aggregateModelParts([call]);
    expect(call.thoughtSignature).toBeUndefined();
  });
});

describe('isFunctionResponseContent', () => {
  it('a user turn holding a function response', () => {
    expect(
      isFunctionResponseContent({ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }),
    ).toBe(true);
    expect(isFunctionResponseContent(user('x'))).toBe(false);
    expect(isFunctionResponseContent({ role: 'model', parts: [{ functionResponse: { name: 'f' } }] })).toBe(false);
    expect(isFunctionResponseContent(undefined)).toBe(false);
  });
});
