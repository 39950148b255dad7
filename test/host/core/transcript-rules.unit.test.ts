import type { Part } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_ACK } from '../../../host/core/compression.js';
import { INTERRUPTED_TEXT } from '../../../host/core/history.js';
import { callResult, isHostMarker, isSnapshot, userWords } from '../../../host/core/transcript-rules.js';
import { ABORTED, CANCELLED_BY_USER, CANCELLED_WAITING } from '../../../host/scheduler/texts.js';
import { UNFINISHED_CALL_TEXT } from '../../../host/sessions/records.js';

const response = (r: unknown): Part => ({ functionResponse: { name: 'f', response: r as Record<string, unknown> } });

describe('callResult', () => {
  it('output is a success, error text an error', () => {
    expect(callResult(response({ output: 'done' }))).toEqual({ text: 'done', status: 'success' });
    expect(callResult(response({ error: 'ENOENT: no such file' }))).toEqual({
      text: 'ENOENT: no such file',
      status: 'error',
    });
  });

  it('denied, cancelled, aborted and never-finished calls are cancelled, never shown as successes', () => {
    for (const text of [CANCELLED_BY_USER, CANCELLED_WAITING, ABORTED, UNFINISHED_CALL_TEXT])
      expect(callResult(response({ error: text }))).toEqual({ text, status: 'cancelled' });
  });

  it('any other response shape is shown as its JSON, and a part without a response as {}', () => {
    expect(callResult(response({ count: 2 }))).toEqual({ text: '{"count":2}', status: 'success' });
    expect(callResult(response({ output: 5 }))).toEqual({ text: '{"output":5}', status: 'success' });
    expect(callResult({ text: 'not a response' })).toEqual({ text: '{}', status: 'success' });
  });
});

describe('userWords', () => {
  it("the user's text parts joined, without the context the host added for @paths or resources", () => {
    const parts: Part[] = [
      { text: 'explain ' },
      { text: '@src/a.ts' },
      { text: '\n--- Content from referenced files ---\nfile body' },
      { text: '\n--- Content from resource x://y ---\nres' },
      { inlineData: { mimeType: 'image/png', data: 'AA' } },
      { text: '  ' },
    ];
    expect(userWords(parts)).toBe('explain @src/a.ts');
  });

  it('a user who types the marker text mid-message keeps it', () => {
    expect(userWords([{ text: 'look: --- Content from referenced files ---' }])).toBe(
      'look: --- Content from referenced files ---',
    );
  });
});

describe('isSnapshot and isHostMarker', () => {
  it('a compression summary is recognised by its opening tag only', () => {
    expect(isSnapshot('<state_snapshot>\n...</state_snapshot>')).toBe(true);
    expect(isSnapshot('what is <state_snapshot>?')).toBe(false);
  });

  it("the interrupted-turn text always; the summary's acknowledgement only right after a summary", () => {
    expect(isHostMarker(INTERRUPTED_TEXT, false)).toBe(true);
    expect(isHostMarker(SNAPSHOT_ACK, true)).toBe(true);
    expect(isHostMarker(SNAPSHOT_ACK, false)).toBe(false);
    expect(isHostMarker('Got it.', true)).toBe(false);
  });
});
