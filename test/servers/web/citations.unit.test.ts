import { describe, expect, it } from 'vitest';
import { formatSources, insertCitations } from '../../../servers/web/citations.js';

describe('insertCitations', () => {
  it('puts [n] at each segment end, 1-based, several indices joined', () => {
    const text = 'Alpha is first. Beta is second.';
    expect(
      insertCitations(text, [
        { segment: { endIndex: 15 }, groundingChunkIndices: [0] },
        { segment: { endIndex: 31 }, groundingChunkIndices: [1, 2] },
      ]),
    ).toBe('Alpha is first.[1] Beta is second.[2][3]');
  });

  it('offsets are UTF-8 bytes: text with multi-byte characters is cut at the right place', () => {
    // "é" is 2 bytes, "🙂" is 4: the first sentence ends at byte 11, not UTF-16 unit 8.
    const text = 'Café 🙂. Next.';
    expect(Buffer.byteLength('Café 🙂.')).toBe(11);
    expect(insertCitations(text, [{ segment: { endIndex: 11 }, groundingChunkIndices: [0] }])).toBe(
      'Café 🙂.[1] Next.',
    );
  });

  it('supports out of order are placed by position; one offset keeps the support order', () => {
    expect(
      insertCitations('ab', [
        { segment: { endIndex: 2 }, groundingChunkIndices: [2] },
        { segment: { endIndex: 1 }, groundingChunkIndices: [0] },
        { segment: { endIndex: 2 }, groundingChunkIndices: [1] },
      ]),
    ).toBe('a[1]b[3][2]');
  });

  it('supports without a segment or without indices add nothing; no supports leave the text', () => {
    expect(
      insertCitations('x', [{ groundingChunkIndices: [0] }, { segment: { endIndex: 1 }, groundingChunkIndices: [] }]),
    ).toBe('x');
    expect(insertCitations('x', undefined)).toBe('x');
    // A segment without endIndex counts as the start.
    expect(insertCitations('x', [{ segment: {}, groundingChunkIndices: [0] }])).toBe('[1]x');
  });
});

describe('formatSources', () => {
  it('lists the chunks numbered from 1, with Untitled and the given text for a missing URI', () => {
    expect(formatSources([{ web: { title: 'Docs', uri: 'https://d.org' } }, { web: {} }, {}], 'No URI')).toBe(
      '\n\nSources:\n[1] Docs (https://d.org)\n[2] Untitled (No URI)\n[3] Untitled (No URI)',
    );
  });

  it('no chunks, no Sources block', () => {
    expect(formatSources([], 'x')).toBe('');
    expect(formatSources(undefined, 'x')).toBe('');
  });
});
