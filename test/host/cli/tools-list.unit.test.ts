import { describe, expect, it } from 'vitest';
import { wrapWords } from '../../../host/cli/tools-list.js';

describe('wrapWords', () => {
  it('fills rows up to the width, each indented', () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve';
    const rows = wrapWords(text, 30, 4);
    expect(rows).toEqual(['    one two three four five', '    six seven eight nine ten', '    eleven twelve']);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(30);
  });

  it('keeps paragraphs, collapses runs of spaces, and drops trailing empty rows', () => {
    expect(wrapWords('first   para\n\nsecond\n\n', 80, 2)).toEqual(['  first para', '', '  second']);
  });

  it('a word longer than the row gets a row of its own, never cut', () => {
    const long = 'x'.repeat(50);
    expect(wrapWords(`a ${long} b`, 30, 2)).toEqual(['  a', `  ${long}`, '  b']);
  });

  it('a very narrow terminal still gets 20 columns of text', () => {
    expect(wrapWords('aaaa bbbb cccc dddd eeee', 5, 4)).toEqual(['    aaaa bbbb cccc dddd', '    eeee']);
  });

  it('empty text is one empty row', () => {
    expect(wrapWords('', 80, 2)).toEqual(['']);
  });
});
