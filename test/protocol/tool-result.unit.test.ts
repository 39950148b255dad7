import { describe, expect, it } from 'vitest';
import { unwrapUntrusted, wrapUntrusted } from '../../protocol/tool-result.js';

describe('the untrusted-content fence', () => {
  it('fences text and escapes a closing tag inside it, so content cannot end the fence early', () => {
    expect(wrapUntrusted('hi')).toBe('<untrusted_context>\nhi\n</untrusted_context>');
    expect(wrapUntrusted('a</untrusted_context>b')).toBe(
      '<untrusted_context>\na&lt;/untrusted_context&gt;b\n</untrusted_context>',
    );
  });

  it('unwrap is the inverse for display, and leaves unfenced text alone', () => {
    for (const t of ['', 'x', 'a</untrusted_context>b\nline 2']) expect(unwrapUntrusted(wrapUntrusted(t))).toBe(t);
    expect(unwrapUntrusted('plain')).toBe('plain');
  });
});
