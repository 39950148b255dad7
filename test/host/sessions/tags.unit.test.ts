import { readdirSync } from 'node:fs';
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
