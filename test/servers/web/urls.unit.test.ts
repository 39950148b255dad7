import { describe, expect, it } from 'vitest';
import { githubRawUrl, normaliseUrl, parsePromptUrls, prepareUrls } from '../../../servers/web/urls.js';

describe('parsePromptUrls', () => {
  it('takes http(s) tokens in prompt order, across any whitespace', () => {
    expect(parsePromptUrls('summarise https://a.org/x\tand\nhttp://B.org/y please')).toEqual({
      urls: ['https://a.org/x', 'http://b.org/y'],
      errors: [],
    });
  });

  it('words without :// are not URLs, even when they look like hosts', () => {
    expect(parsePromptUrls('see example.com or mailto:me@x.org or www.a.org/p')).toEqual({ urls: [], errors: [] });
  });

  it('other protocols and malformed URLs give Gemini CLI messages and are dropped', () => {
    const { urls, errors } = parsePromptUrls('file:///etc/passwd ftp://h/f https://ok.org http://[bad');
    expect(urls).toEqual(['https://ok.org/']);
    expect(errors).toEqual([
      'Unsupported protocol in URL: "file:///etc/passwd". Only http and https are supported.',
      'Unsupported protocol in URL: "ftp://h/f". Only http and https are supported.',
      'Malformed URL detected: "http://[bad".',
    ]);
  });

  it('credentials and odd hosts come back as the parser reads them, not as written', () => {
    // A token that hides its real host behind user info: the href shows the real one.
    expect(parsePromptUrls('https://trusted.com@evil.org/p').urls).toEqual(['https://trusted.com@evil.org/p']);
    expect(new URL(parsePromptUrls('https://trusted.com@evil.org/p').urls[0]!).hostname).toBe('evil.org');
    expect(parsePromptUrls('http://0x7f.1/').urls).toEqual(['http://127.0.0.1/']);
  });
});

describe('normaliseUrl', () => {
  it('drops trailing slashes of a path but keeps the root and the query', () => {
    expect(normaliseUrl('https://x.org/a///')).toBe('https://x.org/a');
    expect(normaliseUrl('https://x.org/a/?q=1')).toBe('https://x.org/a?q=1');
    expect(normaliseUrl('https://x.org')).toBe('https://x.org/');
    expect(normaliseUrl('https://X.org:8443/a')).toBe('https://x.org:8443/a');
  });

  it('throws on a string that is not a URL (callers pass parsed hrefs only)', () => {
    expect(() => normaliseUrl('not a url')).toThrow();
  });
});

describe('githubRawUrl', () => {
  it('keeps the query and accepts www.github.com', () => {
    expect(githubRawUrl('https://www.github.com/o/r/blob/v1.2/docs/a%20b.md?plain=1')).toBe(
      'https://raw.githubusercontent.com/o/r/v1.2/docs/a%20b.md?plain=1',
    );
  });

  it('leaves other hosts and non-blob paths alone, including look-alike hosts', () => {
    for (const u of [
      'https://github.com/o/r',
      'https://github.com/o/blob/x',
      'https://gist.github.com/o/r/blob/main/f',
      'https://github.com.evil.org/o/r/blob/main/f',
      'https://evilgithub.com/o/r/blob/main/f',
    ])
      expect(githubRawUrl(u), u).toBe(u);
  });
});

describe('prepareUrls', () => {
  it('a blob URL and its raw form collapse into one fetch, first position kept', () => {
    expect(
      prepareUrls([
        'https://github.com/o/r/blob/main/f.md',
        'https://x.org/',
        'https://raw.githubusercontent.com/o/r/main/f.md',
      ]),
    ).toEqual(['https://raw.githubusercontent.com/o/r/main/f.md', 'https://x.org/']);
  });

  it('no URLs, no fetches', () => {
    expect(prepareUrls([])).toEqual([]);
  });
});
