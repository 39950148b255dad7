import { describe, expect, it } from 'vitest';
import { fallbackPrompt, shareBudget, TOTAL_TEXT_BUDGET } from '../../../servers/web/fallback.js';

const CUT = '\n\n... [Content truncated due to size limit] ...';

describe('shareBudget', () => {
  it('texts within the budget are untouched, in their order', () => {
    expect(shareBudget(['bb', 'a', 'ccc'], 10)).toEqual(['bb', 'a', 'ccc']);
  });

  it('small texts first, then equal shares of what is left: one huge page cannot crowd out the others', () => {
    const out = shareBudget(['x'.repeat(1000), 'small', 'y'.repeat(1000)], 105);
    expect(out[1]).toBe('small');
    expect(out[0]).toBe(`${'x'.repeat(50)}${CUT}`);
    expect(out[2]).toBe(`${'y'.repeat(50)}${CUT}`);
  });

  it('what a short text leaves over goes to the longer ones', () => {
    const out = shareBudget(['a'.repeat(10), 'b'.repeat(60), 'c'.repeat(200)], 120);
    expect(out[0]).toBe('a'.repeat(10));
    expect(out[1]).toBe('b'.repeat(55) + CUT);
    expect(out[2]).toBe('c'.repeat(55) + CUT);
  });

  it('the default budget is 250,000 characters', () => {
    expect(TOTAL_TEXT_BUDGET).toBe(250_000);
    const [one] = shareBudget(['z'.repeat(300_000)]);
    expect(one).toBe(`${'z'.repeat(250_000)}${CUT}`);
  });

  it('no texts, nothing to share', () => {
    expect(shareBudget([], 10)).toEqual([]);
  });
});

describe('fallbackPrompt', () => {
  it('the request fenced as user instructions and each source with its URL', () => {
    const p = fallbackPrompt('Summarise both pages', [
      { url: 'https://a.org/', text: 'Page A' },
      { url: 'https://b.org/x', text: 'Page B' },
    ]);
    expect(p).toContain('<user_instructions>\nSummarise both pages\n</user_instructions>');
    expect(p).toContain(
      '<source url="https://a.org/">\nPage A\n</source>\n\n<source url="https://b.org/x">\nPage B\n</source>\n',
    );
    expect(p.startsWith('The URLs in the request below could not be read through URL context retrieval')).toBe(true);
  });
});
