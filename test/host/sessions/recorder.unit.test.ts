import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { chatsDir, SessionRecorder } from '../../../host/sessions/recorder.js';
import { loadSession } from '../../../host/sessions/store.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-recorder-');
let n = 0;
const fresh = () => join(base, `p${++n}`);
const meta = { cwd: '/w', model: 'gemini-x', kind: 'headless' as const };
const user = (text: string): Content => ({ role: 'user', parts: [{ text }] });
const model = (text: string): Content => ({ role: 'model', parts: [{ text }] });
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

describe('SessionRecorder', () => {
  it('creates nothing until the first record; then the header and the record, private to the user', () => {
    const project = fresh();
    const rec = new SessionRecorder(chatsDir(project), meta, undefined, undefined, 'my-id-123456');
    expect(rec.written).toBe(false);
    expect(existsSync(chatsDir(project))).toBe(false);
    rec.appended([user('hello')]);
    expect(rec.written).toBe(true);
    rec.close();
    expect(basename(rec.file)).toMatch(/^session-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-my-id-12\.jsonl$/);
    const [head, first] = lines(rec.file);
    expect(head).toMatchObject({
      type: 'session',
      version: 1,
      id: 'my-id-123456',
      cwd: '/w',
      model: 'gemini-x',
      kind: 'headless',
    });
    expect(first).toMatchObject({ type: 'content', content: user('hello') });
    expect(statSync(rec.file).mode & 0o777).toBe(0o600);
    expect(statSync(chatsDir(project)).mode & 0o777).toBe(0o700);
  });

  it('a random id when none is chosen', () => {
    const rec = new SessionRecorder(chatsDir(fresh()), meta);
    expect(rec.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('what the user typed goes with the next user message only', () => {
    const rec = new SessionRecorder(chatsDir(fresh()), meta);
    rec.noteTyped('/review src');
    rec.appended([model('not this one'), user('expanded prompt'), user('later')]);
    rec.close();
    const [, a, b, c] = lines(rec.file);
    expect([a.typed, b.typed, c.typed]).toEqual([undefined, '/review src', undefined]);
  });

  it('what it writes reads back as the session: replace records and all', () => {
    const project = fresh();
    const rec = new SessionRecorder(chatsDir(project), meta, undefined, undefined, 'round-trip');
    rec.appended([user('first'), model('one')]);
    rec.replaced([user('summary')], 'compress');
    rec.appended([user('second')]);
    rec.close();
    const s = loadSession(project, 'round-trip');
    expect(s.history).toEqual([user('summary'), user('second')]);
    expect(s.transcript).toEqual([user('first'), model('one'), user('second')]);
    expect(s.title).toBe('first');
    expect(s.skipped).toEqual([]);
  });

  it('a resumed session appends to its file, without a second header', () => {
    const project = fresh();
    const first = new SessionRecorder(chatsDir(project), meta, undefined, undefined, 'resume-me');
    first.appended([user('a')]);
    first.close();
    const again = new SessionRecorder(chatsDir(project), meta, { id: 'resume-me', file: first.file });
    expect(again.written).toBe(true);
    again.appended([user('b')]);
    again.close();
    expect(lines(first.file).map((r) => r.type)).toEqual(['session', 'content', 'content']);
    expect(loadSession(project, 'resume-me').history).toEqual([user('a'), user('b')]);
  });

  it('a failure to write is reported once and never breaks the caller', () => {
    const project = fresh();
    mkdirSync(project);
    writeFileSync(chatsDir(project), 'a file where the folder should be');
    const errors: string[] = [];
    const rec = new SessionRecorder(chatsDir(project), meta, undefined, (m) => errors.push(m));
    rec.appended([user('a')]);
    rec.appended([user('b')]);
    rec.replaced([], 'x');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Session recording stopped: /);
    expect(rec.written).toBe(false);
  });
});
