import { describe, expect, it } from 'vitest';
import { appendFact, sanitiseFact } from '../../../servers/memory/memory-file.js';
import { codeRegions } from '../../../servers/memory/context/import-processor.js';
import { tildify } from '../../../servers/memory/paths.js';

describe('memory helpers', () => {
  it('sanitises and appends per the contract example', () => {
    expect(sanitiseFact('  --  - x <y>  ')).toBe('x  y ');
    const once = appendFact('', 'prefers tea');
    expect(once).toBe('## Gemini Added Memories\n- prefers tea\n');
    expect(appendFact(once, 'uses vim')).toBe('## Gemini Added Memories\n- prefers tea\n- uses vim\n');
    // a mention of the header inside a line is not the header
    expect(appendFact('- see ## Gemini Added Memories', 'x')).toBe(
      '- see ## Gemini Added Memories\n\n## Gemini Added Memories\n- x\n',
    );
  });

  it('finds fenced blocks and inline spans', () => {
    const text = 'a `x` b ``y ` z`` c\n```\n@in\n```\nd';
    const regions = codeRegions(text).map(([s, e]) => text.slice(s, e));
    expect(regions).toContain('`x`');
    expect(regions).toContain('``y ` z``');
    expect(regions).toContain('```\n@in\n```\n');
  });

  it('shows home paths with ~', () => {
    expect(tildify('/h/u/.gemini/GEMINI.md', '/h/u')).toBe('~/.gemini/GEMINI.md');
    expect(tildify('/elsewhere/GEMINI.md', '/h/u')).toBe('/elsewhere/GEMINI.md');
  });
});
