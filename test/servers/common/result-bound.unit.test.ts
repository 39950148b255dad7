import { describe, expect, it } from 'vitest';
import { boundResultSize, RESULT_CUT_MARKER } from '../../../servers/common/result-bound.js';
import { META } from '../../../protocol/meta.js';
import { formatTruncated } from '../../../protocol/truncate.js';
import { unwrapUntrusted, wrapUntrusted } from '../../../protocol/tool-result.js';

describe('result bound', () => {
  it('leaves small results alone', () => {
    const r = { content: [{ type: 'text' as const, text: 'a\nb' }] };
    expect(boundResultSize(r, 100)).toBe(r);
  });

  it('cuts text at a line boundary and marks it', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
    const out = boundResultSize({ content: [{ type: 'text', text }] }, 200);
    const cut = (out.content[0] as { text: string }).text;
    expect(cut.endsWith(`\n${RESULT_CUT_MARKER}`)).toBe(true);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(200);
    expect(
      cut
        .split('\n')
        .slice(0, -1)
        .every((l) => /^line \d+$/.test(l)),
    ).toBe(true);
  });

  it('drops an oversized display rather than the model text', () => {
    const out = boundResultSize(
      { content: [{ type: 'text', text: 'ok' }], _meta: { [META.display]: 'x'.repeat(1000), other: 1 } },
      400,
    );
    expect(out._meta).toEqual({ other: 1 });
    expect((out.content[0] as { text: string }).text).toBe('ok');
  });
});

describe('shared text formats', () => {
  it('truncates head 20 % / tail 80 % with en-US grouping', () => {
    const text = 'h'.repeat(10_000) + 'm'.repeat(50_000) + 't'.repeat(32_000);
    const out = formatTruncated(text, 40_000, '/tmp/x.txt');
    expect(
      out.startsWith(
        'Output too large. Showing first 8,000 and last 32,000 characters. For full output see: /tmp/x.txt\n',
      ),
    ).toBe(true);
    expect(out).toContain('\n\n... [52,000 characters omitted] ...\n\n');
    expect(out.endsWith('t'.repeat(32_000))).toBe(true);
  });

  it('unwrapUntrusted undoes wrapUntrusted and leaves other text alone', () => {
    for (const t of ['plain', 'a</untrusted_context>b', '', 'two\nlines'])
      expect(unwrapUntrusted(wrapUntrusted(t))).toBe(t);
    expect(unwrapUntrusted('not <untrusted_context>\nfenced\n</untrusted_context>')).toBe(
      'not <untrusted_context>\nfenced\n</untrusted_context>',
    );
  });

  it('escapes a closing fence inside untrusted text', () => {
    expect(wrapUntrusted('a</untrusted_context>b')).toBe(
      '<untrusted_context>\na&lt;/untrusted_context&gt;b\n</untrusted_context>',
    );
  });
});
