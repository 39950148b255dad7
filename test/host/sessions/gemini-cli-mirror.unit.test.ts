import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { GeminiCliMirror } from '../../../host/sessions/gemini-cli-mirror.js';
import { readGeminiCliSession } from '../../../host/sessions/gemini-cli-sessions.js';
import { tempDir } from '../../helpers/tmp.js';

/** A home where Gemini CLI has its folder for `/work/p`; returns our project temp dir and its chats folder. */
function geminiCliHome(withFolder = true): { ours: string; chats: string } {
  const home = tempDir('mirror-');
  const tmp = join(home, '.gemini', 'tmp');
  const root = '/work/p';
  const ours = join(tmp, createHash('sha256').update(root).digest('hex'));
  mkdirSync(ours, { recursive: true });
  if (withFolder) {
    mkdirSync(join(tmp, 'p'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [root]: 'p' } }));
    writeFileSync(join(tmp, 'p', '.project_root'), root);
  }
  return { ours, chats: join(tmp, 'p', 'chats') };
}

const turn1: Content[] = [
  { role: 'user', parts: [{ text: 'which files?' }] },
  {
    role: 'model',
    parts: [
      { text: 'thinking it over', thought: true },
      { functionCall: { id: 'c1', name: 'filesystem__glob', args: { pattern: '*.ts' } } },
      { functionCall: { id: 'c2', name: 'github__list_issues', args: {} } },
    ],
  },
  {
    role: 'user',
    parts: [
      { functionResponse: { id: 'c1', name: 'filesystem__glob', response: { output: 'a.ts' } } },
      { functionResponse: { id: 'c2', name: 'github__list_issues', response: { error: 'offline' } } },
    ],
  },
  { role: 'model', parts: [{ text: 'There is a.ts.' }] },
];

const readBack = (chats: string) => {
  const [file] = readdirSync(chats);
  return readGeminiCliSession(readFileSync(join(chats, file!), 'utf8'));
};

describe("Gemini CLI's copy of a session of ours", () => {
  it('holds the conversation as Gemini CLI reads it back: calls under its names, their results, no thoughts', () => {
    const { ours, chats } = geminiCliHome();
    const mirror = GeminiCliMirror.open(ours, 'aaaaaaaa-1111', 'gemini-2.5-pro')!;
    mirror.appended(turn1.slice(0, 2));
    mirror.appended(turn1.slice(2));
    mirror.close();
    const lines = readFileSync(join(chats, readdirSync(chats)[0]!), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ sessionId: 'aaaaaaaa-1111', kind: 'main' });
    expect(readdirSync(chats)[0]).toMatch(/^session-\d{4}-\d\d-\d\dT\d\d-\d\d-aaaaaaaa\.jsonl$/);
    const gemini = lines.map((l) => JSON.parse(l)).filter((r) => r.type === 'gemini');
    expect(gemini[0].toolCalls.map((c: { name: string }) => c.name)).toEqual(['glob', 'mcp_github_list_issues']);
    expect(gemini[1].toolCalls.map((c: { status: string }) => c.status)).toEqual(['success', 'error']);
    const back = readBack(chats)!;
    expect(back.id).toBe('aaaaaaaa-1111');
    // Read back here, Gemini CLI's built-in names are ours again; other servers' stay in its spelling.
    expect(back.history).toEqual([
      turn1[0],
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'c1', name: 'filesystem__glob', args: { pattern: '*.ts' } } },
          { functionCall: { id: 'c2', name: 'mcp_github_list_issues', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'filesystem__glob', response: { output: 'a.ts' } } },
          { functionResponse: { id: 'c2', name: 'mcp_github_list_issues', response: { error: 'offline' } } },
        ],
      },
      turn1[3],
    ]);
  });

  it('a compression changes nothing there; a rewind replaces the messages; a resume goes on in the same file', () => {
    const { ours, chats } = geminiCliHome();
    const a = GeminiCliMirror.open(ours, 'bbbbbbbb-2222', 'm')!;
    a.appended(turn1);
    a.replaced([{ role: 'user', parts: [{ text: 'summary' }] }], 'compress');
    expect(readBack(chats)!.history).toHaveLength(4);
    a.replaced(turn1.slice(0, 1), 'rewind');
    a.close();
    expect(readBack(chats)!.history).toEqual(turn1.slice(0, 1));
    const b = GeminiCliMirror.open(ours, 'bbbbbbbb-2222', 'm', turn1)!;
    b.appended([{ role: 'model', parts: [{ text: 'back again' }] }]);
    b.close();
    expect(readdirSync(chats)).toHaveLength(1);
    expect(readBack(chats)!.history.map((c) => c.parts![0]!.text)).toEqual(['which files?', 'back again']);
  });

  it('a session of ours resumed before it had a copy starts its copy with what it holds', () => {
    const { ours, chats } = geminiCliHome();
    const m = GeminiCliMirror.open(ours, 'cccccccc-3333', 'm', turn1)!;
    m.appended([{ role: 'user', parts: [{ text: 'more?' }] }]);
    m.close();
    expect(readBack(chats)!.history.map((c) => c.role)).toEqual(['user', 'model', 'user', 'model', 'user']);
  });

  it('never writes through a link planted at its name, nor waits on a FIFO; it says so once', () => {
    const target = join(tempDir('mirror-target-'), 'bashrc');
    writeFileSync(target, 'untouched\n');
    for (const plant of [(p: string) => symlinkSync(target, p), (p: string) => execFileSync('mkfifo', [p])]) {
      const { ours, chats } = geminiCliHome();
      mkdirSync(chats, { recursive: true });
      // Its name holds the minute: this one and the next are both taken.
      for (const ms of [0, 60_000]) {
        const stamp = new Date(Date.now() + ms).toISOString().slice(0, 16).replace(/:/g, '-');
        plant(join(chats, `session-${stamp}-eeeeeeee.jsonl`));
      }
      const errors: string[] = [];
      const m = GeminiCliMirror.open(ours, 'eeeeeeee-5555', 'm', [], (e) => errors.push(e))!;
      m.appended(turn1);
      m.appended(turn1);
      m.close();
      expect(errors).toEqual([expect.stringContaining("Gemini CLI's copy of this session stopped")]);
    }
    expect(readFileSync(target, 'utf8')).toBe('untouched\n');
  });

  it('is not made where Gemini CLI has no folder for the project', () => {
    const { ours } = geminiCliHome(false);
    expect(GeminiCliMirror.open(ours, 'dddddddd-4444', 'm')).toBeUndefined();
  });
});
