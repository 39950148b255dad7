import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import {
  foldRecords,
  messageCount,
  parseRecords,
  repairHistory,
  type SessionRecord,
  titleOf,
  UNFINISHED_CALL_TEXT,
} from '../../../host/sessions/records.js';

const T = '2026-01-01T00:00:00Z';
const header = { type: 'session', version: 1, id: 'abc', startTime: T, cwd: '/w', model: 'm', kind: 'headless' };
const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const content = (c: Content, typed?: string) => ({ type: 'content', time: T, content: c, ...(typed ? { typed } : {}) });
const lines = (...values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n');

describe('parseRecords', () => {
  it('replays the header and the records in order, skipping blank lines', () => {
    const { records, skipped } = parseRecords(
      `${lines(header, content(user('hi')), '', '   ', content(model('yo')))}\n`,
    );
    expect(records.map((r) => r.type)).toEqual(['session', 'content', 'content']);
    expect(skipped).toEqual([]);
  });

  it('a torn line (a killed write) is skipped quietly; the rest still replays', () => {
    const { records, skipped } = parseRecords(lines(header, content(user('a')), '{"type":"content","ti'));
    expect(records).toHaveLength(2);
    expect(skipped).toEqual([]);
  });

  it('a record of the wrong shape is skipped and named by line and field', () => {
    const text = lines(
      header,
      { type: 'content', time: T, content: { parts: [{ text: 5 }] } },
      { type: 'replace', time: T, reason: 'x' },
      { type: 'mystery' },
      [1, 2],
      { ...header, id: '' },
    );
    const { records, skipped } = parseRecords(text);
    expect(records.map((r) => r.type)).toEqual(['session']);
    expect(skipped).toHaveLength(5);
    expect(skipped[0]).toMatch(/^line 2 \("content\.parts\.0\.text": /);
    expect(skipped[1]).toMatch(/^line 3 \("history": /);
    expect(skipped[2]).toMatch(/^line 4 /);
    expect(skipped[4]).toMatch(/^line 6 \("id": /);
  });

  it('an unknown run kind reads as chat; unknown fields pass through (a newer version)', () => {
    const { records } = parseRecords(lines({ ...header, kind: 'robot', extra: { a: 1 } }));
    expect(records[0]).toMatchObject({ type: 'session', kind: 'chat', extra: { a: 1 } });
  });
});

describe('foldRecords', () => {
  const replay = (...rs: unknown[]) => foldRecords(rs as SessionRecord[]);

  it('contents build the history; the first header wins', () => {
    const f = replay(header, content(user('a')), { ...header, id: 'other' }, content(model('b')));
    expect(f.header?.id).toBe('abc');
    expect(f.history).toEqual([user('a'), model('b')]);
    expect(f.transcript).toEqual(f.history);
  });

  it('a compression replaces what the model is sent, not what the screen shows', () => {
    const snapshot = [user('summary')];
    const f = replay(
      content(user('a')),
      content(model('b')),
      { type: 'replace', time: T, reason: 'compress', history: snapshot },
      content(user('c')),
    );
    expect(f.history).toEqual([user('summary'), user('c')]);
    expect(f.transcript).toEqual([user('a'), model('b'), user('c')]);
    // The title still comes from what the user first typed.
    expect(f.firstContents[0]).toEqual(user('a'));
  });

  it('any other replace (a restored checkpoint) replaces the transcript too', () => {
    const f = replay(content(user('a')), { type: 'replace', time: T, reason: 'restore', history: [user('x')] });
    expect(f.history).toEqual([user('x')]);
    expect(f.transcript).toEqual([user('x')]);
  });

  it('keeps at most the first four contents, and what the user typed for the first one only', () => {
    const f = replay(...['1', '2', '3', '4', '5'].map((t, i) => content(user(t), i === 1 ? '/cmd 2' : undefined)));
    expect(f.firstContents.map((c) => c.parts?.[0]?.text)).toEqual(['1', '2', '3', '4']);
    expect(f.firstTyped).toBeUndefined();
    expect(replay(content(user('expanded'), '/review x')).firstTyped).toBe('/review x');
  });

  it('no records: no header, empty history', () => {
    expect(replay()).toEqual({
      header: undefined,
      history: [],
      firstContents: [],
      transcript: [],
      firstTyped: undefined,
    });
  });
});

describe('repairHistory', () => {
  it('answers each unanswered call of a last model turn with the error, ids and names kept', () => {
    const turn: Content = {
      role: 'model',
      parts: [
        { text: 'doing' },
        { functionCall: { id: 'c1', name: 'read_file', args: {} } },
        { functionCall: { id: 'c2', name: 'ls', args: {} } },
      ],
    };
    const history = [user('go'), turn];
    const out = repairHistory(history);
    expect(out).toHaveLength(3);
    expect(out[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { id: 'c1', name: 'read_file', response: { error: UNFINISHED_CALL_TEXT } } },
        { functionResponse: { id: 'c2', name: 'ls', response: { error: UNFINISHED_CALL_TEXT } } },
      ],
    });
    expect(history).toHaveLength(2);
  });

  it('leaves a history that ends with the user, with a plain model answer, or empty', () => {
    const h1 = [user('a')];
    const h2 = [user('a'), model('b')];
    expect(repairHistory(h1)).toEqual(h1);
    expect(repairHistory(h2)).toEqual(h2);
    expect(repairHistory([])).toEqual([]);
  });
});

describe('titleOf and messageCount', () => {
  it('the title is the first line of the first user text, spaces collapsed, cut with …', () => {
    const history: Content[] = [
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} }, text: 'not this' } as never] },
      { role: 'user', parts: [{ text: '   ' }] },
      model('answer'),
      user('  fix   the\tbug\nsecond line'),
    ];
    expect(titleOf(history)).toBe('fix the bug');
    expect(titleOf([user('x'.repeat(100))], 10)).toBe(`${'x'.repeat(9)}…`);
    expect(titleOf([user('x'.repeat(10))], 10)).toBe('x'.repeat(10));
    expect(titleOf([model('only the model')])).toBe('(no prompt)');
    // No space left before the end or the ellipsis.
    expect(titleOf([user('fix the bug  \nand the next one')])).toBe('fix the bug');
    expect(titleOf([user('fix the bug now')], 9)).toBe('fix the…');
  });

  it('counts prompts and answers with text, not thoughts or tool traffic', () => {
    const history: Content[] = [
      user('q'),
      { role: 'model', parts: [{ text: 'thinking', thought: true }] },
      { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] },
      { role: 'model', parts: [{ text: ' ' }] },
      model('a'),
    ];
    expect(messageCount(history)).toBe(2);
  });
});
