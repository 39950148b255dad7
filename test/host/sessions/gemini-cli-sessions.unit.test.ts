import { mkdirSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiCliSessionFiles } from '../../../host/sessions/gemini-cli-folder.js';
import { geminiCliHeader, readGeminiCliSession } from '../../../host/sessions/gemini-cli-sessions.js';
import { tempDir } from '../../helpers/tmp.js';

const lines = (...records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');
const HEADER = { sessionId: 's-1', projectHash: 'h', startTime: '2026-11-29T00:00:00.000Z', kind: 'main' };
const user = (id: string, text: string) => ({ id, type: 'user', content: [{ text }] });

describe('reading a Gemini CLI 0.61 session file', () => {
  it('replays its records: $set messages, a message re-recorded with its calls, $rewindTo', () => {
    const s = readGeminiCliSession(
      lines(
        HEADER,
        { $set: { messages: [user('ctx', '<session_context>\nThis is the Gemini CLI.</session_context>')] } },
        user('u1', 'first question'),
        { id: 'g1', type: 'gemini', content: '', thoughts: [{ subject: 'Plan', description: 'read it' }] },
        {
          id: 'g1',
          type: 'gemini',
          content: '',
          toolCalls: [
            {
              id: 'c1',
              name: 'read_file',
              args: { file_path: 'a.txt' },
              result: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'A' } } }],
            },
            { id: 'c2', name: 'run_shell_command', args: { command: 'ls' }, result: 'a.txt' },
            {
              id: 'c3',
              name: 'mcp_github_get_issue',
              args: { n: 1 },
              result: { functionResponse: { id: 'c3', name: 'mcp_github_get_issue', response: { output: '#1' } } },
            },
          ],
        },
        {
          id: 'r1',
          type: 'user',
          content: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'A' } } }],
        },
        { id: 'i1', type: 'info', content: 'Request cancelled.' },
        { id: 'g2', type: 'gemini', content: 'Done.' },
        user('u2', '/stats'),
        user('u3', 'a question later taken back'),
        { id: 'g3', type: 'gemini', content: 'an answer taken back' },
        { $rewindTo: 'u3' },
        { $set: { lastUpdated: '2026-11-29T00:01:00.000Z' } },
        '{"id":"torn","type":"gem',
      ),
    );
    expect(s?.id).toBe('s-1');
    expect(s?.history).toEqual([
      { role: 'user', parts: [{ text: 'first question' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'c1', name: 'filesystem__read_file', args: { file_path: 'a.txt' } } },
          { functionCall: { id: 'c2', name: 'shell__run_shell_command', args: { command: 'ls' } } },
          { functionCall: { id: 'c3', name: 'mcp_github_get_issue', args: { n: 1 } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'filesystem__read_file', response: { output: 'A' } } },
          { functionResponse: { id: 'c2', name: 'shell__run_shell_command', response: { output: 'a.txt' } } },
          { functionResponse: { id: 'c3', name: 'mcp_github_get_issue', response: { output: '#1' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'Done.' }] },
    ]);
  });

  it('keeps a model turn whose calls are in its content, and drops its thought parts', () => {
    const s = readGeminiCliSession(
      lines(HEADER, user('u1', 'go'), {
        id: 'g1',
        type: 'gemini',
        content: [
          { text: 'thinking', thought: true },
          { functionCall: { id: 'x', name: 'glob', args: { pattern: '*' } } },
        ],
        toolCalls: [{ id: 'x', name: 'glob', args: { pattern: '*' }, result: 'none' }],
      }),
    );
    expect(s?.history.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { id: 'x', name: 'filesystem__glob', args: { pattern: '*' } } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'x', name: 'filesystem__glob', response: { output: 'none' } } }],
      },
    ]);
  });

  it('takes a main session only: a subagent record or a file of ours is not one', () => {
    expect(geminiCliHeader(JSON.stringify(HEADER))).toEqual({ id: 's-1', startTime: HEADER.startTime });
    expect(geminiCliHeader(JSON.stringify({ ...HEADER, kind: 'subagent' }))).toBeUndefined();
    expect(geminiCliHeader(JSON.stringify({ type: 'session', version: 1, id: 'ours' }))).toBeUndefined();
    expect(readGeminiCliSession('not json\n')).toBeUndefined();
  });
});

describe("finding a project's Gemini CLI sessions", () => {
  const layout = (root: string, slug: string, owner?: string) => {
    const home = tempDir('gcs-home-');
    const tmp = join(home, '.gemini', 'tmp');
    mkdirSync(join(tmp, slug, 'chats'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [root]: slug } }));
    if (owner !== undefined) writeFileSync(join(tmp, slug, '.project_root'), owner);
    writeFileSync(join(tmp, slug, 'chats', 'session-2026-11-29T00-00-abc.jsonl'), JSON.stringify(HEADER));
    writeFileSync(join(tmp, slug, 'chats', 'notes.txt'), 'not a session');
    const ours = join(tmp, createHash('sha256').update(root).digest('hex'));
    return { ours, chats: join(tmp, slug, 'chats') };
  };

  it("through projects.json, from our folder's hash of the root, confirmed by .project_root", () => {
    const { ours, chats } = layout('/work/proj', 'proj', '/work/proj\n');
    expect(geminiCliSessionFiles(ours)).toEqual({
      root: '/work/proj',
      files: [join(chats, 'session-2026-11-29T00-00-abc.jsonl')],
    });
  });

  it("not when the slug's marker names another project, nor for a slug that is a path", () => {
    expect(geminiCliSessionFiles(layout('/work/proj', 'proj', '/elsewhere').ours).files).toEqual([]);
    expect(geminiCliSessionFiles(layout('/work/proj', '../escape').ours).files).toEqual([]);
    expect(geminiCliSessionFiles(join(tempDir('gcs-none-'), 'x')).files).toEqual([]);
  });
});
