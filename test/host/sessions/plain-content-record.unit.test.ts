import { describe, expect, it } from 'vitest';
import { isPlainContentRecord, parseRecords, schemaAccepts } from '../../../host/sessions/records.js';

const ok = (content: unknown) => ({ type: 'content', time: '2026-01-01T00:00:00Z', content });

/** Records of every shape near the content record's edges, valid and not. */
const SAMPLES: unknown[] = [
  ok({ role: 'user', parts: [{ text: 'hi' }] }),
  ok({ role: 'model', parts: [{ text: 'x', thought: true, thoughtSignature: 'abc' }] }),
  ok({ parts: [{ functionCall: { name: 'f', id: '1', args: { a: 1 } } }] }),
  ok({ parts: [{ functionResponse: { name: 'f', response: { ok: true } } }] }),
  ok({ parts: [{ functionResponse: {} }] }),
  ok({}),
  ok({ role: 'user', parts: [], extra: 1 }),
  { ...ok({ parts: [] }), more: 'fields pass through' },
  ok({ role: 7, parts: [] }),
  ok({ parts: [{ text: 5 }] }),
  ok({ parts: [{ thought: 'yes' }] }),
  ok({ parts: [{ functionCall: { id: '1' } }] }),
  ok({ parts: [{ functionCall: null }] }),
  ok({ parts: [{ functionResponse: { name: 3 } }] }),
  ok({ parts: [null] }),
  ok({ parts: [[]] }),
  ok({ parts: {} }),
  ok({ parts: null }),
  ok(null),
  ok([]),
  ok('text'),
  { type: 'content', content: { parts: [] } },
  { type: 'content', time: 1, content: { parts: [] } },
  { type: 'session', version: 1, id: 's', startTime: 't', cwd: '/', model: 'm' },
  { type: 'replace', time: 't', reason: 'r', history: [] },
  [],
  null,
  'content',
];

describe('isPlainContentRecord', () => {
  it('never accepts what the record schema refuses, and takes every plain content record', () => {
    for (const v of SAMPLES) {
      if (isPlainContentRecord(v)) expect(schemaAccepts(v), JSON.stringify(v)).toBe(true);
      const isContent = typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'content';
      if (isContent && schemaAccepts(v)) expect(isPlainContentRecord(v), JSON.stringify(v)).toBe(true);
    }
  });

  it('parseRecords keeps the same records and skips the same lines with or without it', () => {
    const text = SAMPLES.map((v) => JSON.stringify(v)).join('\n');
    const { records, skipped } = parseRecords(text);
    expect(records).toHaveLength(SAMPLES.filter(schemaAccepts).length);
    expect(skipped).toHaveLength(SAMPLES.filter((v) => !schemaAccepts(v)).length);
  });
});
