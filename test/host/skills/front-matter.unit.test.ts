import { describe, expect, it } from 'vitest';
import { frontMatterBlock, splitFrontMatter } from '../../../host/skills/front-matter.js';

describe('splitFrontMatter', () => {
  it('reads YAML front matter and the body after it', () => {
    expect(splitFrontMatter('---\nname: s\ntags: [a, b]\n---\nDo it.\n')).toEqual({
      data: { name: 's', tags: ['a', 'b'] },
      body: 'Do it.\n',
    });
  });

  it('CRLF line ends, and a file that is only front matter', () => {
    expect(splitFrontMatter('---\r\nname: s\r\n---\r\nBody')).toEqual({ data: { name: 's' }, body: 'Body' });
    expect(splitFrontMatter('---\nname: s\n---')).toEqual({ data: { name: 's' }, body: '' });
  });

  it('no front matter: all body, no data (also when --- is not on the first line)', () => {
    expect(splitFrontMatter('Just text')).toEqual({ body: 'Just text' });
    expect(splitFrontMatter('\n---\nname: s\n---\n')).toEqual({ body: '\n---\nname: s\n---\n' });
    expect(splitFrontMatter('---\nname: s\nno closing line\n')).toEqual({ body: '---\nname: s\nno closing line\n' });
  });

  it('the first closing --- ends the front matter; later ones belong to the body', () => {
    expect(splitFrontMatter('---\nname: s\n---\nA\n---\nB')).toEqual({ data: { name: 's' }, body: 'A\n---\nB' });
  });

  it('a description with a bare colon (not YAML) is read as simple key: value lines', () => {
    const text = '---\nname: review\ndescription: Review code: find bugs\n---\nBody';
    expect(splitFrontMatter(text)).toEqual({
      data: { name: 'review', description: 'Review code: find bugs' },
      body: 'Body',
    });
  });

  it('the simple reading joins indented continuation lines and skips lines that are no key', () => {
    const text = '---\nname: x\ndescription: one: two\n  three\n\tfour\n- stray\nbad key: v\n---\n';
    expect(splitFrontMatter(text).data).toEqual({ name: 'x', description: 'one: two three four' });
  });

  it('YAML that is a list or a scalar is not front-matter data: the simple reading applies', () => {
    expect(splitFrontMatter('---\n- a\n- b\n---\nB')).toEqual({ data: {}, body: 'B' });
    expect(splitFrontMatter('---\njust words\n---\nB')).toEqual({ data: {}, body: 'B' });
  });

  it('YAML tags that would build objects are not run (the safe schema)', () => {
    const r = splitFrontMatter('---\nname: !!js/function "function(){}"\n---\n');
    expect(typeof r.data?.name).not.toBe('function');
  });
});

describe('frontMatterBlock', () => {
  it('gives the YAML text untouched, for readers that must reject bad YAML', () => {
    expect(frontMatterBlock('---\ndescription: a: b\n---\nBody')).toEqual({ yaml: 'description: a: b', body: 'Body' });
    expect(frontMatterBlock('no front matter')).toBeUndefined();
  });
});
