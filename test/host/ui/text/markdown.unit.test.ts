import { columnWidths } from '../../../../host/ui/text/markdown-blocks.js';
import { describe, expect, it } from 'vitest';
import { highlightCode } from '../../../../host/ui/text/code-highlight.js';
import { createMarkdownRenderer } from '../../../../host/ui/text/markdown.js';
import { createPalette, stripSgr } from '../../../../host/ui/text/palette.js';
import { textWidth } from '../../../../host/ui/text/text-width.js';

const p256 = createPalette(256);
const plain = createPalette(0);
const render = (md: string, width = 60, p = p256) => createMarkdownRenderer(p).render(md, width);

describe('markdown renderer (marked tokens, our terminal output)', () => {
  it('every construct renders without its markup', () => {
    const out = stripSgr(
      render(
        [
          '## Plan',
          'Some **bold**, *em*, `code`, ~~gone~~ and [docs](https://example.dev).',
          '1. first\n2. second\n   - nested',
          '- [x] done\n- [ ] todo',
          '> quoted\n> text',
          '---',
          '| a | b |\n|---|---|\n| x & y | <z> |',
        ].join('\n\n'),
      ),
    );
    expect(out).toContain('Plan');
    expect(out).not.toMatch(/[#*`~]{2}|\]\(/);
    expect(out).toContain('Some bold, em, code, gone and docs (https://example.dev).');
    expect(out).toMatch(/1\. first\n2\. second\n {3}\* nested/);
    expect(out).toMatch(/\* \[x\] done\n\* \[ \] todo/);
    expect(out).toMatch(/│ quoted\n│ text/);
    expect(out).toMatch(/^─{20,}$/m);
    expect(out).toMatch(/│ x & y │ <z> │/);
  });

  it('list items wrap under their text; tables shrink to the width and wrap inside cells', () => {
    const out = stripSgr(
      render(`- ${'word '.repeat(20)}\n\n| col | text |\n|---|---|\n| 1 | ${'long '.repeat(15)}|`, 30),
    );
    for (const line of out.split('\n')) expect(textWidth(line)).toBeLessThanOrEqual(30);
    expect(out.split('\n')[1]).toMatch(/^ {2}word/);
    expect(out).toMatch(/│ 1 +│ long/);
  });

  it('code blocks: highlight.js 11 colours by language through the palette, indented, never reflowed', () => {
    const out = render('```python\ndef greet(name):\n    return f"hi {name}"  # say hi\n```', 20);
    expect(out).toContain(p256.gray('python'));
    expect(out).toContain(`  ${p256.magenta('def')}`);
    expect(out).toContain(p256.gray('# say hi'));
    expect(stripSgr(out)).toContain('    return f"hi {name}"  # say hi');
    // No colours on a terminal without them; an unknown language is guessed or left plain.
    expect(render('```ts\nconst a = 1;\n```', 40, plain)).toBe('ts\n  const a = 1;');
    expect(stripSgr(highlightCode('x <- 1 && y', 'no-such-lang', p256))).toBe('x <- 1 && y');
  });
});

describe('markdown (as the chat uses it)', () => {
  it('renders headings, emphasis, lists, code and tables without markup', () => {
    const out = render(
      '# Title\n\nSome **bold** text.\n\n- one\n- two\n\n```js\nconst a = 1;\n```\n\n| h1 | h2 |\n|----|----|\n| 中文 | x |\n',
    );
    const text = stripSgr(out);
    expect(text).toMatch(/^Title/);
    expect(text).toContain('Some bold text.');
    expect(text).toMatch(/\* one\n\* two/);
    expect(text).toContain('const a = 1;');
    expect(text).toMatch(/│ 中文 │ x {2}│/);
    expect(out).toContain('\x1b[1m');
    expect(out).toMatch(/\x1b\[38;5;\d+mconst/);
  });

  it('renders inline code and emphasis inside list items', () => {
    const out = render('- created `hello.md`\n- **bold** and *em*\n');
    expect(stripSgr(out)).toMatch(/\* created hello\.md\n\* bold and em/);
    expect(out).toContain('\x1b[1mbold');
  });

  it('reflows to the width and tolerates an unclosed fence while streaming', () => {
    const out = render('word '.repeat(40), 30, plain);
    for (const line of out.split('\n')) expect(line.length).toBeLessThanOrEqual(30);
    expect(render('```py\nprint(1)', 40, plain)).toContain('print(1)');
  });
});

describe('columnWidths: tables sized by content', () => {
  it('keeps natural widths that fit, and never cuts a word while the longest words fit', () => {
    expect(columnWidths([5, 10], [5, 4], 20)).toEqual([5, 10]);
    // 20 columns of room for 14 + 60 of content: the name column keeps its one long word whole.
    const w = columnWidths([14, 60], [14, 9], 40);
    expect(w[0]).toBe(14);
    expect(w[0]! + w[1]!).toBe(40);
  });

  it('gives the room left in proportion to what each column still needs', () => {
    expect(columnWidths([10, 40, 10], [5, 5, 5], 35)).toEqual([7, 21, 7]);
  });

  it('narrows the widest columns, inside words, only when the longest words cannot all fit', () => {
    expect(columnWidths([30, 30], [30, 30], 40)).toEqual([20, 20]);
  });
});
