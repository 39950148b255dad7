import { describe, expect, it } from 'vitest';
import { promptInput } from '../../../host/acp/prompt-blocks.js';

describe('promptInput', () => {
  it('text blocks join with spaces, trimmed', () => {
    expect(
      promptInput([
        { type: 'text', text: ' explain ' },
        { type: 'text', text: 'this ' },
      ]),
    ).toEqual({
      text: 'explain  this',
      extra: [],
    });
  });

  it('a file link becomes @path, spaces escaped as the @ parser reads them', () => {
    const { text } = promptInput([
      { type: 'text', text: 'review' },
      { type: 'resource_link', uri: 'file:///w/src/my%20file.ts', name: 'my file.ts' },
      { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
    ]);
    expect(text).toBe('review @/w/src/my\\ file.ts @/w/a.ts');
  });

  it('a link that is not a local file stays a markdown link, never an @path', () => {
    const { text } = promptInput([
      { type: 'resource_link', uri: 'https://example.com/doc', name: 'doc', title: 'The doc' },
      { type: 'resource_link', uri: 'zed://buffer/3', name: 'buffer 3' },
      { type: 'resource_link', uri: 'file://remote-host/etc/passwd', name: 'remote' },
    ]);
    expect(text).toBe(
      '[The doc](https://example.com/doc) [buffer 3](zed://buffer/3) [remote](file://remote-host/etc/passwd)',
    );
  });

  it('embedded text is sent whole, framed and named; embedded blobs and images are inline data', () => {
    const { text, extra } = promptInput([
      { type: 'text', text: 'fix' },
      { type: 'resource', resource: { uri: 'file:///w/sel.ts', text: 'let x = 1;' } },
      { type: 'resource', resource: { uri: 'untitled:1', text: 'scratch' } },
      { type: 'resource', resource: { uri: 'file:///w/img.bin', blob: 'AAAA' } },
      { type: 'image', mimeType: 'image/png', data: 'iVBO' },
      { type: 'audio', mimeType: 'audio/wav', data: 'UklG' },
    ]);
    expect(text).toBe('fix');
    expect(extra).toEqual([
      { text: '\n--- Content from the editor: /w/sel.ts ---\nlet x = 1;\n--- End of content ---' },
      { text: '\n--- Content from the editor: untitled:1 ---\nscratch\n--- End of content ---' },
      { inlineData: { mimeType: 'application/octet-stream', data: 'AAAA' } },
      { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
      { inlineData: { mimeType: 'audio/wav', data: 'UklG' } },
    ]);
  });

  it('no blocks: an empty prompt', () => {
    expect(promptInput([])).toEqual({ text: '', extra: [] });
  });
});
