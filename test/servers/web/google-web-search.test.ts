import { describe, expect, it } from 'vitest';
import { textOf } from '../../helpers/mcp.js';
import { NS, answer, apiError, gemini, promptOf, startWeb } from './harness.js';

describe('google_web_search', () => {
  it('rejects an empty query', async () => {
    const s = await startWeb(null);
    const r = await s.call('google_web_search', { query: '   ' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("The 'query' parameter cannot be empty.");
    expect(r._meta?.[`${NS}/errorType`]).toBe('invalid_tool_params');
  });

  it('inserts citation markers at UTF-8 byte offsets and lists the sources', async () => {
    // "Café" has 5 bytes; "é" and "ü" shift byte offsets away from UTF-16 indices.
    const text = 'Café is open. Müller said so. Done';
    const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
    const ep = await gemini(() =>
      answer(text, {
        groundingMetadata: {
          groundingChunks: [
            { web: { uri: 'https://a.invalid/1', title: 'First' } },
            { web: { title: 'No link' } },
            { web: { uri: 'https://c.invalid/3' } },
          ],
          groundingSupports: [
            { segment: { startIndex: 0, endIndex: bytes('Café is open.') }, groundingChunkIndices: [0] },
            {
              segment: { startIndex: bytes('Café is open. '), endIndex: bytes('Café is open. Müller said so.') },
              groundingChunkIndices: [1, 2],
            },
          ],
          webSearchQueries: ['café'],
        },
      }),
    );
    const s = await startWeb(ep, ['--model', 'gemini-search-test']);
    const r = await s.call('google_web_search', { query: 'café hours' });
    expect(r.isError).toBeFalsy();
    expect(textOf(r)).toBe(
      'Web search results for "café hours":\n\nCafé is open.[1] Müller said so.[2][3] Done\n\n' +
        'Sources:\n[1] First (https://a.invalid/1)\n[2] No link (No URI)\n[3] Untitled (https://c.invalid/3)',
    );
    expect(r._meta?.[`${NS}/display`]).toBe('Search results for "café hours" returned.');
    const req = ep.requestsOf('generateContent')[0];
    expect(req.model).toBe('gemini-search-test');
    expect(req.body.tools).toEqual([{ googleSearch: {} }]);
    expect(promptOf(req)).toBe('café hours');
    expect(req.headers['x-goog-api-key']).toBe('test-key');
  });

  it('returns the answer without sources when there is no grounding', async () => {
    const ep = await gemini(() => answer('plain answer'));
    const s = await startWeb(ep);
    const r = await s.call('google_web_search', { query: 'q', wait_for_previous: true });
    expect(textOf(r)).toBe('Web search results for "q":\n\nplain answer');
  });

  it('reports an empty answer as no results, and API errors as failures', async () => {
    let n = 0;
    const ep = await gemini(() => (n++ === 0 ? answer('') : apiError(500, 'search backend down')));
    const s = await startWeb(ep);
    const empty = await s.call('google_web_search', { query: 'nothing' });
    expect(empty.isError).toBeFalsy();
    expect(textOf(empty)).toBe('No search results or information found for query: "nothing"');
    const failed = await s.call('google_web_search', { query: 'boom' });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('Error during web search for query "boom": search backend down (500 INTERNAL)');
    expect(failed._meta?.[`${NS}/errorType`]).toBe('web_search_failed');
  });

  it('names the variables to set without a key', async () => {
    const s = await startWeb(null);
    const r = await s.call('google_web_search', { query: 'q' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Error during web search for query "q": No Gemini API key .*GEMINI_API_KEY/);
    expect(r._meta?.[`${NS}/errorType`]).toBe('web_search_failed');
  });
});
