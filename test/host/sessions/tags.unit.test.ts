import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyToMarkdown, shareText } from '../../../host/sessions/share.js';
import { deleteChat, listChats, loadChat, saveChat } from '../../../host/sessions/tags.js';
import { tempDir } from '../../helpers/tmp.js';

const history = [
  { role: 'user', parts: [{ text: 'find the bug' }] },
  { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'filesystem__glob', args: { pattern: '*.ts' } } }] },
  { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'filesystem__glob', response: { output: 'a.ts' } } }] },
  { role: 'model', parts: [{ text: 'It is in a.ts.' }] },
];

describe("Gemini CLI 0.61's saved chats", () => {
  it('are listed and resumed beside ours, with its tool names made ours, and never deleted here', () => {
    const home = tempDir('tags-gc-');
    const tmp = join(home, '.gemini', 'tmp');
    const root = '/work/some-project';
    const ours = join(tmp, createHash('sha256').update(root).digest('hex'));
    mkdirSync(ours, { recursive: true });
    mkdirSync(join(tmp, 'some-project', 'chats'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'projects.json'), JSON.stringify({ projects: { [root]: 'some-project' } }));
    writeFileSync(join(tmp, 'some-project', '.project_root'), root);
    // As Gemini CLI 0.61 writes `/chat save v1.2` (its Logger.saveCheckpoint), and an older release's bare array.
    const theirs = [
      { role: 'user', parts: [{ text: '<session_context>\nThis is the Gemini CLI.\n</session_context>' }] },
      { role: 'user', parts: [{ text: 'list the files' }] },
      { role: 'model', parts: [{ functionCall: { id: 'g', name: 'glob', args: { pattern: '*' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'g', name: 'glob', response: { output: 'a.ts' } } }] },
    ];
    const v12 = join(tmp, 'some-project', 'checkpoint-v1.2.json');
    writeFileSync(v12, JSON.stringify({ history: theirs, authType: 'gemini-api-key' }, null, 2));
    writeFileSync(join(tmp, 'some-project', 'checkpoint-old.json'), JSON.stringify(theirs));
    writeFileSync(join(tmp, 'some-project', 'checkpoint-mine.json'), JSON.stringify({ history: theirs }));
    saveChat(ours, 'mine', history);

    expect(listChats(ours).map((t) => [t.tag, t.geminiCli ?? false])).toEqual(
      expect.arrayContaining([
        ['v1.2', true],
        ['old', true],
        ['mine', false],
      ]),
    );
    expect(listChats(ours)).toHaveLength(3);
    const v = loadChat(ours, 'v1.2');
    expect(v.geminiCli).toBe(true);
    // Gemini CLI's own context turn is not part of the conversation here.
    expect(v.history[0]!.parts).toEqual([{ text: 'list the files' }]);
    expect(v.history[1]!.parts![0]!.functionCall!.name).toBe('filesystem__glob');
    expect(v.history[2]!.parts![0]!.functionResponse!.name).toBe('filesystem__glob');
    expect(loadChat(ours, 'old').history).toHaveLength(3);
    // Ours wins for a tag both have.
    expect(loadChat(ours, 'mine').history).toEqual(history);
    expect(() => deleteChat(ours, 'v1.2')).toThrow('saved by Gemini CLI');
    expect(JSON.parse(readFileSync(v12, 'utf8')).history).toEqual(theirs);
    expect(() => loadChat(ours, 'absent')).toThrow('No saved chat');
    // A dangling link or a damaged file of theirs spoils nothing else.
    symlinkSync(join(tmp, 'nowhere'), join(tmp, 'some-project', 'checkpoint-gone.json'));
    writeFileSync(join(tmp, 'some-project', 'checkpoint-torn.json'), '{"history": [');
    expect(listChats(ours).map((t) => t.tag)).not.toContain('gone');
    expect(() => loadChat(ours, 'torn')).toThrow(`Saved chat "torn" (Gemini CLI's) is damaged`);
  });
});

describe('saved chats and shared conversations', () => {
  it('tags round-trip and cannot name a file outside the directory', () => {
    const dir = tempDir('tags-');
    saveChat(dir, 'my feature', history);
    saveChat(dir, '../../escape', history);
    expect(readdirSync(dir).sort()).toEqual([
      'checkpoint-%2E%2E%2F%2E%2E%2Fescape.json',
      'checkpoint-my%20feature.json',
    ]);
    expect(
      listChats(dir)
        .map((t) => t.tag)
        .sort(),
    ).toEqual(['../../escape', 'my feature']);
    expect(loadChat(dir, 'my feature').history).toEqual(history);
    deleteChat(dir, '../../escape');
    expect(() => loadChat(dir, '../../escape')).toThrow('No saved chat');
    expect(() => saveChat(dir, '  ', history)).toThrow('A tag is required');
  });

  it('share: Markdown with tool calls and results, or the raw history as JSON', () => {
    const md = historyToMarkdown(history as never);
    expect(md).toMatch(/## 🧑 User\n\nfind the bug/);
    expect(md).toContain('🔧 **filesystem__glob**');
    expect(md).toMatch(/↳ \*\*filesystem__glob\*\* result\n\n```\na\.ts\n```/);
    expect(md).toContain('## 🤖 Model\n\nIt is in a.ts.');
    expect(JSON.parse(shareText('x.json', history as never))).toEqual(history);
    expect(() => shareText('x.txt', history as never)).toThrow('.md or .json');
  });
});
