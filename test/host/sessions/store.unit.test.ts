import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UNFINISHED_CALL_TEXT } from '../../../host/sessions/records.js';
import {
  checkSessionRef,
  deleteSession,
  findSession,
  hasSession,
  listSessions,
  loadSession,
  SessionNotFoundError,
  recordedTitle,
} from '../../../host/sessions/store.js';
import { formatAge, formatSessionList, skippedRecordsNotice } from '../../../host/sessions/session-list-text.js';
import { tempDir } from '../../helpers/tmp.js';

const base = tempDir('gmc-store-');
let n = 0;
const T = '2026-01-01T00:00:00Z';
const header = (id: string) => ({ type: 'session', version: 1, id, startTime: T, cwd: '/w', model: 'm', kind: 'chat' });
const content = (role: string, parts: unknown[], typed?: string) => ({
  type: 'content',
  time: T,
  content: { role, parts },
  ...(typed ? { typed } : {}),
});
const say = (text: string) => content('user', [{ text }]);
const answer = (text: string) => content('model', [{ text }]);

/** A fresh project temp folder with the given sessions; `age` in minutes before now sets each file's mtime. */
function project(sessions: { id: string; records: unknown[]; age: number; raw?: string }[]): string {
  const dir = join(base, `p${++n}`);
  mkdirSync(join(dir, 'chats'), { recursive: true });
  for (const s of sessions) {
    const file = join(dir, 'chats', `session-${s.id}.jsonl`);
    writeFileSync(file, s.raw ?? `${s.records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const t = new Date(Date.now() - s.age * 60_000);
    utimesSync(file, t, t);
  }
  return dir;
}

describe('listSessions', () => {
  it('oldest activity first, numbered from 1, with title, message count and kind', () => {
    const dir = project([
      { id: 'new', records: [header('new'), say('second task'), answer('ok')], age: 1 },
      { id: 'old', records: [header('old'), say('first task\nmore'), answer('a'), say('b'), answer('c')], age: 60 },
    ]);
    const list = listSessions(dir);
    expect(list.map((s) => [s.index, s.id, s.title, s.messages, s.kind])).toEqual([
      [1, 'old', 'first task', 4, 'chat'],
      [2, 'new', 'second task', 2, 'chat'],
    ]);
  });

  it('a session started by a command is titled by what the user typed', () => {
    const dir = project([
      { id: 's', records: [header('s'), content('user', [{ text: 'expanded prompt' }], '/review src')], age: 1 },
    ]);
    expect(listSessions(dir)[0]?.title).toBe('/review src');
  });

  it('files without a usable header are left out and reported; other files in the folder are ignored', () => {
    const dir = project([
      { id: 'ok', records: [header('ok'), say('hi')], age: 1 },
      { id: 'bad', records: [{ type: 'session', id: '' }, say('x')], age: 2 },
      { id: 'empty', records: [], raw: '', age: 3 },
    ]);
    writeFileSync(join(dir, 'chats', 'notes.txt'), 'x');
    const unusable: string[] = [];
    expect(listSessions(dir, (m) => unusable.push(m)).map((s) => s.id)).toEqual(['ok']);
    expect(unusable).toHaveLength(1);
    expect(unusable[0]).toMatch(/session-bad\.jsonl: no usable session header, skipped \(line 1 /);
  });

  it('no chats folder: no sessions', () => {
    expect(listSessions(join(base, 'nowhere'))).toEqual([]);
  });
});

describe('findSession', () => {
  const dir = project([
    { id: 'abc', records: [header('abc'), say('one')], age: 30 },
    { id: 'abcdef', records: [header('abcdef'), say('two')], age: 20 },
    { id: '1', records: [header('1'), say('three')], age: 10 },
    { id: 'zzz', records: [header('zzz'), say('four')], age: 1 },
  ]);

  it('an exact id wins over a position and a prefix', () => {
    expect(findSession(dir, 'abc').id).toBe('abc');
    expect(findSession(dir, '1').id).toBe('1');
  });

  it('latest (or nothing) is the newest; a number is a list position', () => {
    expect(findSession(dir, 'latest').id).toBe('zzz');
    expect(findSession(dir, '  ').id).toBe('zzz');
    expect(findSession(dir, '2').id).toBe('abcdef');
  });

  it('a unique prefix finds its session; an ambiguous or unknown one is a clear error', () => {
    expect(findSession(dir, 'abcd').id).toBe('abcdef');
    expect(findSession(dir, 'z').id).toBe('zzz');
    expect(() => findSession(dir, 'ab')).toThrow('Session id "ab" is ambiguous: 2 sessions start with it.');
    expect(() => findSession(dir, 'nope')).toThrow('No session "nope" in this project (see --list-sessions).');
    expect(() => findSession(dir, '9')).toThrow('No session number 9: this project has 4 (see --list-sessions).');
  });

  it('control characters in a reference are shown visibly, not sent to the terminal', () => {
    const err = (() => {
      try {
        findSession(dir, 'x\u001b[2Jy');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err).toBeInstanceOf(SessionNotFoundError);
    expect(err?.message).not.toContain('\u001b');
  });

  it('no sessions at all', () => {
    expect(() => findSession(join(base, 'none'), 'latest')).toThrow('No saved sessions for this project yet.');
  });
});

describe('loadSession and deleteSession', () => {
  it('loads the history with unanswered calls of a killed run answered', () => {
    const dir = project([
      {
        id: 'k',
        records: [header('k'), say('go'), content('model', [{ functionCall: { id: 'c1', name: 'ls', args: {} } }])],
        age: 1,
      },
    ]);
    const s = loadSession(dir, 'k');
    expect(s.history).toHaveLength(3);
    expect(s.history[2]?.parts?.[0]?.functionResponse?.response).toEqual({ error: UNFINISHED_CALL_TEXT });
    expect(s.transcript).toHaveLength(2);
  });

  it('a session with some bad records loads the rest and says which were skipped', () => {
    const dir = project([{ id: 'b', records: [header('b'), say('ok'), { type: 'content', time: 1 }], age: 1 }]);
    const s = loadSession(dir, 'b');
    expect(s.history).toHaveLength(1);
    expect(s.skipped).toHaveLength(1);
    expect(skippedRecordsNotice(s)).toMatch(
      /session-b\.jsonl: 1 record of the wrong shape skipped, the rest is usable: line 3 /,
    );
    expect(skippedRecordsNotice({ file: 'f', skipped: [] })).toBeUndefined();
  });

  it('finds what the list finds, reading only first lines of the others, whatever those lines hold', () => {
    const line = (r: unknown) => JSON.stringify(r);
    const dir = project([
      { id: 'plain', records: [header('plain'), say('one')], age: 70 },
      // The header is the first session record: after a blank line, after a content record, after a bad header.
      { id: 'blank', records: [], raw: `\n${line(header('blank'))}\n${line(say('two'))}\n`, age: 60 },
      { id: 'late', records: [say('three'), header('late')], age: 50 },
      { id: 'bad', records: [{ ...header(''), id: '' }, header('bad'), say('four')], age: 40 },
      // A header line longer than what is read of each file's start.
      { id: 'long', records: [{ ...header('long'), cwd: `/${'w'.repeat(70_000)}` }, say('five')], age: 30 },
      // A lone header line torn by a kill, and a file that is no session at all: not listed.
      { id: 'torn', records: [], raw: line(header('torn')).slice(0, 30), age: 20 },
      { id: 'empty', records: [], raw: '', age: 10 },
      { id: 'newest', records: [header('newest'), say('six'), answer('ok')], age: 1 },
    ]);
    const list = listSessions(dir);
    expect(list.map((s) => s.id)).toEqual(['plain', 'blank', 'late', 'bad', 'long', 'newest']);
    for (const ref of [...list.map((s) => s.id), 'latest', '', '1', '4', '6', 'lo', 'ne']) {
      const { header: _h, history: _hi, transcript: _t, ...info } = loadSession(dir, ref);
      expect(info, ref).toEqual(findSession(dir, ref));
    }
    expect(() => loadSession(dir, 'torn')).toThrow('No session "torn" in this project');
    expect(() => loadSession(dir, '7')).toThrow('No session number 7: this project has 6');
  });

  it('an id check reads first lines only: a session too big to read whole still holds its id', () => {
    const dir = project([
      { id: 'small', records: [header('small'), say('one')], age: 2 },
      { id: 'huge', records: [header('huge'), say('two')], age: 1 },
    ]);
    // Sparse, past the longest string V8 makes (~512 MiB): read whole, it cannot be parsed at all.
    truncateSync(join(dir, 'chats', 'session-huge.jsonl'), 0x2000_0000 + 4096);
    expect(hasSession(dir, 'huge')).toBe(true);
    expect(hasSession(dir, 'small')).toBe(true);
    expect(hasSession(dir, 'hug')).toBe(false);
    expect(() => checkSessionRef(dir, 'huge')).not.toThrow();
    expect(() => checkSessionRef(dir, '2')).not.toThrow();
    expect(() => checkSessionRef(dir, 'nope')).toThrow('No session "nope" in this project');
    expect(recordedTitle(join(dir, 'chats', 'session-small.jsonl'))).toBe('one');
    // Deleting reads only the chosen file whole: the huge one goes too (its title is its first line's, none).
    expect(deleteSession(dir, 'small')).toEqual({ index: 1, id: 'small', title: 'one' });
    expect(deleteSession(dir, 'huge')).toEqual({ index: 1, id: 'huge', title: '' });
    expect(hasSession(dir, 'huge')).toBe(false);
  });

  it('delete removes only the chosen file', () => {
    const dir = project([
      { id: 'a', records: [header('a'), say('x')], age: 2 },
      { id: 'b', records: [header('b'), say('y')], age: 1 },
    ]);
    expect(deleteSession(dir, 'a').id).toBe('a');
    expect(existsSync(join(dir, 'chats', 'session-a.jsonl'))).toBe(false);
    expect(listSessions(dir).map((s) => s.id)).toEqual(['b']);
  });
});

describe('formatAge and formatSessionList', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const ago = (s: number) => new Date(now.getTime() - s * 1000);
  it('the largest whole unit, singular or plural; the future is just now', () => {
    expect([30, 60, 7200, 86400 * 3, 86400 * 31, 86400 * 800, -50].map((s) => formatAge(ago(s), now))).toEqual([
      'just now',
      '1 minute ago',
      '2 hours ago',
      '3 days ago',
      '1 month ago',
      '2 years ago',
      'just now',
    ]);
  });

  it('numbered lines with title, age and id; titles and ids cannot carry escape sequences', () => {
    const list = formatSessionList(
      [
        {
          index: 1,
          id: 'a\u001b]0;x\u0007',
          file: 'f',
          title: 'fix \u001b[31mbug',
          startTime: T,
          updated: ago(120),
          messages: 2,
          kind: 'chat',
          skipped: [],
        },
      ],
      now,
    );
    expect(list.startsWith('Sessions for this project (1):\n  1. fix ')).toBe(true);
    expect(list).toContain('(2 minutes ago)');
    expect(list).not.toContain('\u001b');
    expect(formatSessionList([], now)).toBe('No saved sessions for this project yet.\n');
  });
});

describe('a session of ours and Gemini CLI’s copy of it', () => {
  /** Our session `id` in a project Gemini CLI also has a folder for, with its copy written `copyAge` minutes ago. */
  function withCopy(id: string, ourAge: number, copyAge: number): string {
    const home = tempDir('gmc-store-copy-');
    const root = '/w/copy-project';
    const tmp = join(home, '.gemini', 'tmp');
    const ours = join(tmp, createHash('sha256').update(root).digest('hex'));
    mkdirSync(join(ours, 'chats'), { recursive: true });
    mkdirSync(join(tmp, 'cp', 'chats'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [root]: 'cp' } }));
    const mine = join(ours, 'chats', `session-${id}.jsonl`);
    writeFileSync(
      mine,
      `${[header(id), say('asked here'), answer('answered here')].map((r) => JSON.stringify(r)).join('\n')}\n`,
    );
    const copy = join(tmp, 'cp', 'chats', `session-2026-01-01T00-00-${id.slice(0, 8)}.jsonl`);
    const record = (type: string, text: string, mid: string) => ({ id: mid, timestamp: T, type, content: [{ text }] });
    const lines = [
      { sessionId: id, projectHash: 'h', startTime: T, kind: 'main' },
      record('user', 'asked here', 'm1'),
      record('gemini', 'answered here', 'm2'),
      record('user', 'went on in Gemini CLI', 'm3'),
    ];
    writeFileSync(copy, `${lines.map((r) => JSON.stringify(r)).join('\n')}\n`);
    utimesSync(mine, new Date(Date.now() - ourAge * 60_000), new Date(Date.now() - ourAge * 60_000));
    utimesSync(copy, new Date(Date.now() - copyAge * 60_000), new Date(Date.now() - copyAge * 60_000));
    return ours;
  }

  it('is listed once: ours, unless Gemini CLI went on with the copy; an editor’s load is always ours', () => {
    const same = withCopy('sid-same', 5, 5);
    expect(listSessions(same).map((s) => [s.id, s.geminiCli ?? false])).toEqual([['sid-same', false]]);
    const continued = withCopy('sid-went-on', 10, 1);
    expect(listSessions(continued).map((s) => [s.id, s.geminiCli ?? false])).toEqual([['sid-went-on', true]]);
    expect(loadSession(continued, 'sid-went-on').history).toHaveLength(3);
    expect(loadSession(continued, 'sid-went-on', true).history).toHaveLength(2);
    expect(hasSession(continued, 'sid-went-on', false)).toBe(true);
  });
});

describe('Gemini CLI’s sessions in our list', () => {
  it('leave out a start where nothing was said, as its own list does, for numbers and names alike', () => {
    const home = tempDir('gmc-store-gc-');
    const root = '/w/gc-project';
    const tmp = join(home, '.gemini', 'tmp');
    const ours = join(tmp, createHash('sha256').update(root).digest('hex'));
    const chats = join(tmp, 'gcp', 'chats');
    mkdirSync(ours, { recursive: true });
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [root]: 'gcp' } }));
    const meta = (id: string) => JSON.stringify({ sessionId: id, projectHash: 'h', startTime: T, kind: 'main' });
    const context = JSON.stringify({
      $set: {
        messages: [
          { id: 'c', timestamp: T, type: 'user', content: [{ text: '<session_context>\nhi</session_context>' }] },
        ],
      },
    });
    const said = JSON.stringify({ id: 'u', timestamp: T, type: 'user', content: [{ text: 'a real question' }] });
    writeFileSync(join(chats, 'session-2026-01-01T00-00-opened00.jsonl'), `${meta('opened-only')}\n${context}\n`);
    writeFileSync(join(chats, 'session-2026-01-01T00-01-talked00.jsonl'), `${meta('talked')}\n${context}\n${said}\n`);
    expect(listSessions(ours).map((s) => [s.index, s.id, s.title])).toEqual([[1, 'talked', 'a real question']]);
    expect(loadSession(ours, '1').id).toBe('talked');
    expect(loadSession(ours, 'latest').id).toBe('talked');
  });
});
