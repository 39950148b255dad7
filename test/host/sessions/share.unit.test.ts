import type { Content } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { historyToMarkdown, shareText } from '../../../host/sessions/share.js';

const history: Content[] = [
  { role: 'user', parts: [{ text: 'list files' }] },
  {
    role: 'model',
    parts: [
      { text: 'secret reasoning', thought: true },
      { text: 'Listing.' },
      { functionCall: { name: 'list_directory', args: { dir_path: '.' } } },
    ],
  },
  {
    role: 'user',
    parts: [
      { functionResponse: { name: 'list_directory', response: { output: 'a.ts\nb.ts' } } },
      { functionResponse: { name: 'read_file', response: { error: 'not found' } } },
      { functionResponse: { name: 'other', response: { count: 2 } } },
    ],
  },
  { role: 'model', parts: [{ text: 'only thinking', thought: true }] },
  { role: 'user', parts: [{ text: 'see image' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] },
];

describe('historyToMarkdown', () => {
  const md = historyToMarkdown(history, 'My chat');
  it('one section per turn, thoughts left out, tool traffic as code blocks', () => {
    const body = md.replace(/_Exported [^_]+_/, '_Exported X_');
    expect(body).toBe(
      [
        '# My chat',
        '',
        '_Exported X_',
        '',
        '## 🧑 User',
        '',
        'list files',
        '',
        '## 🤖 Model',
        '',
        'Listing.',
        '',
        '🔧 **list_directory**\n\n```json\n{\n  "dir_path": "."\n}\n```',
        '',
        '## ↳ Tool results',
        '',
        '↳ **list_directory** result\n\n```\na.ts\nb.ts\n```\n\n↳ **read_file** result\n\n```\nError: not found\n```\n\n↳ **other** result\n\n```\n{\n  "count": 2\n}\n```',
        '',
        '## 🧑 User',
        '',
        'see image\n\n_[image/png data]_',
        '',
      ].join('\n'),
    );
  });

  it('the export time is a real ISO timestamp', () => {
    const stamp = /_Exported ([^_]+)_/.exec(md)?.[1];
    expect(Number.isNaN(Date.parse(stamp ?? ''))).toBe(false);
  });
});

describe('shareText', () => {
  it('.md gives Markdown, .json the raw history, in any case', () => {
    expect(shareText('out.MD', history).startsWith('# Gemini MCP conversation\n')).toBe(true);
    expect(JSON.parse(shareText('out.Json', history))).toEqual(history);
  });

  it('any other name is refused', () => {
    for (const f of ['out.txt', 'out', 'out.md.bak', 'json'])
      expect(() => shareText(f, history), f).toThrow('The file name must end in .md or .json.');
  });
});
