import { describe, expect, it } from 'vitest';
import { isBlockedAddress, HostRateLimiter } from '../../../servers/web/host-policy.js';
import { githubRawUrl, normaliseUrl, parsePromptUrls, prepareUrls } from '../../../servers/web/urls.js';
import { shareBudget } from '../../../servers/web/fallback.js';
import { insertCitations } from '../../../servers/web/citations.js';

describe('web helpers', () => {
  it('blocks private, loopback, link-local and non-unicast addresses only', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '198.19.255.255',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:c0a8:101',
      '64:ff9b::7f00:1',
    ]) {
      expect(isBlockedAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '198.20.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8']) {
      expect(isBlockedAddress(a), a).toBe(false);
    }
  });

  it('normalises, de-duplicates and converts GitHub blob URLs', () => {
    expect(normaliseUrl('HTTP://Example.COM:80/a/b/')).toBe('http://example.com/a/b');
    expect(normaliseUrl('https://example.com:443/')).toBe('https://example.com/');
    expect(githubRawUrl('https://github.com/o/r/blob/main/src/f.md')).toBe(
      'https://raw.githubusercontent.com/o/r/main/src/f.md',
    );
    expect(githubRawUrl('https://github.com/o/r/tree/main')).toBe('https://github.com/o/r/tree/main');
    expect(prepareUrls(['https://x.org/a/', 'https://X.org/a', 'https://x.org/b'])).toEqual([
      'https://x.org/a',
      'https://x.org/b',
    ]);
    expect(parsePromptUrls('a https://x.org/p b mailto:me c').urls).toEqual(['https://x.org/p']);
  });

  it('limits requests per host within the window', () => {
    const rl = new HostRateLimiter(2, 1000);
    expect([rl.take('h', 0), rl.take('h', 1), rl.take('h', 2), rl.take('other', 2), rl.take('h', 1001)]).toEqual([
      true,
      true,
      false,
      true,
      true,
    ]);
  });

  it('shares the text budget smallest first with fair shares', () => {
    const out = shareBudget(['a'.repeat(10), 'b'.repeat(100), 'c'.repeat(100)], 110);
    expect(out[0]).toBe('a'.repeat(10));
    expect(out[1]).toBe(`${'b'.repeat(50)}\n\n... [Content truncated due to size limit] ...`);
    expect(out[2]).toBe(`${'c'.repeat(50)}\n\n... [Content truncated due to size limit] ...`);
  });

  it('clamps citation offsets beyond the text', () => {
    expect(insertCitations('abc', [{ segment: { endIndex: 99 }, groundingChunkIndices: [1] }])).toBe('abc[2]');
    expect(insertCitations('abc', [{ segment: { endIndex: 1 } }])).toBe('abc');
  });
});
