import { describe, expect, it } from 'vitest';
import { META } from '../../../protocol/meta.js';
import { convertCallToolResult, functionResponseParts } from '../../../host/scheduler/convert-result.js';

const opts = { toolName: 'read_file' };

describe('convertCallToolResult: an MCP result taken apart for the model and the user', () => {
  it('joins text blocks for the model and shows the same text', () => {
    const r = convertCallToolResult(
      {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      },
      opts,
    );
    expect(r).toEqual({ isError: false, text: 'a\nb', mediaParts: [], display: 'a\nb', errorType: undefined });
  });

  it('sends images as sibling inline parts with a marker, and strips audio with a note', () => {
    const r = convertCallToolResult(
      {
        content: [
          { type: 'image', mimeType: 'image/png', data: 'AAAA' },
          { type: 'audio', mimeType: 'audio/wav', data: 'BBBB' },
        ],
      },
      opts,
    );
    expect(r.mediaParts).toEqual([{ inlineData: { mimeType: 'image/png', data: 'AAAA' } }]);
    expect(r.text).toBe(
      "[SYSTEM: Binary content (audio/wav) stripped from response due to protocol limitations.]\n[Tool 'read_file' provided the following image data with mime-type: image/png]",
    );
    expect(r.display).toBe('[Image: image/png]\n[Audio: audio/wav]');
  });

  it('reads resources and links; falls back to structured content when there is nothing else', () => {
    const r = convertCallToolResult(
      {
        content: [
          { type: 'resource', resource: { uri: 'file:///a', text: 'inline text' } },
          { type: 'resource_link', uri: 'file:///b', name: 'b' },
        ],
      },
      opts,
    );
    expect(r.text).toBe('inline text\nResource Link: b at file:///b');
    expect(convertCallToolResult({ content: [], structuredContent: { n: 1 } }, opts).text).toBe('{"n":1}');
  });

  it('fences text of untrusted servers, but not their errors', () => {
    const ok = convertCallToolResult(
      { content: [{ type: 'text', text: 'x</untrusted_context>' }] },
      {
        ...opts,
        untrusted: true,
      },
    );
    expect(ok.text).toBe('<untrusted_context>\nx&lt;/untrusted_context&gt;\n</untrusted_context>');
    const err = convertCallToolResult(
      { isError: true, content: [{ type: 'text', text: 'boom' }] },
      {
        ...opts,
        untrusted: true,
      },
    );
    expect(err.text).toBe('boom');
  });

  it('takes the error type and a declared display (a file diff) from _meta; ignores a malformed display', () => {
    const diff = { fileDiff: '--- a\n+++ b\n', fileName: 'a.txt' };
    const r = convertCallToolResult(
      {
        isError: true,
        content: [{ type: 'text', text: 'no' }],
        _meta: { [META.errorType]: 'file_not_found', [META.display]: diff },
      },
      opts,
    );
    expect(r.errorType).toBe('file_not_found');
    expect(r.display).toEqual(diff);
    const bad = convertCallToolResult(
      { content: [{ type: 'text', text: 't' }], _meta: { [META.display]: { x: 1 } } },
      opts,
    );
    expect(bad.display).toBe('t');
  });

  it('a result without a content array becomes a parse error text', () => {
    const r = convertCallToolResult({ content: 'nope' } as never, opts);
    expect(r.text).toBe('[Error: Could not parse tool response]');
  });
});

describe('functionResponseParts', () => {
  it('{output} with media siblings, {error} alone, {} for empty output', () => {
    const media = [{ inlineData: { mimeType: 'image/png', data: 'A' } }];
    expect(functionResponseParts('1', 't', { output: '', media })).toEqual([
      { functionResponse: { id: '1', name: 't', response: { output: 'Binary content provided (1 item(s)).' } } },
      ...media,
    ]);
    expect(functionResponseParts('1', 't', { error: 'e' })).toEqual([
      { functionResponse: { id: '1', name: 't', response: { error: 'e' } } },
    ]);
    expect(functionResponseParts('1', 't', { output: '' })).toEqual([
      { functionResponse: { id: '1', name: 't', response: {} } },
    ]);
  });
});
