import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ENTRY } from '../../helpers/paths.js';
import { textOf } from '../../helpers/mcp.js';
import { NS, answer, apiError, gemini, promptOf, startWeb } from './harness.js';
import { startSite, type TestSite } from './site.js';

let site: TestSite;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site.close());

const unwrap = (r: CallToolResult) => {
  const t = textOf(r);
  expect(t.startsWith('<untrusted_context>\n') && t.endsWith('\n</untrusted_context>')).toBe(true);
  return t.slice('<untrusted_context>\n'.length, -'\n</untrusted_context>'.length);
};

describe('web_fetch validation and skipping', () => {
  it('lists both tools with titles, annotations and the confirms flag', async () => {
    const s = await startWeb(null);
    const { tools } = await s.client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual(['google_web_search', 'web_fetch']);
    const open = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
    expect(byName.web_fetch).toMatchObject({
      title: 'WebFetch',
      annotations: open,
      inputSchema: { required: ['prompt'] },
    });
    expect(byName.web_fetch._meta?.[`${NS}/confirms`]).toBe(true);
    expect(byName.google_web_search).toMatchObject({
      title: 'GoogleSearch',
      annotations: open,
      inputSchema: { required: ['query'] },
    });
    expect(byName.google_web_search._meta?.[`${NS}/confirms`]).toBeUndefined();
  });

  it('gives the exact validation messages', async () => {
    const s = await startWeb(null);
    const cases: Array<[string, string]> = [
      ['  ', "The 'prompt' parameter cannot be empty and must contain URL(s) and instructions."],
      [
        'get ftp://x.org/f and http://[bad/ please',
        'Error(s) in prompt URLs:\n- Unsupported protocol in URL: "ftp://x.org/f". Only http and https are supported.\n- Malformed URL detected: "http://[bad/".',
      ],
      [
        'summarise example.com',
        "The 'prompt' must contain at least one valid URL (starting with http:// or https://).",
      ],
    ];
    for (const [prompt, message] of cases) {
      const r = await s.call('web_fetch', { prompt });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(message);
      expect(r._meta?.[`${NS}/errorType`]).toBe('invalid_tool_params');
    }
    const missing = await s.call('web_fetch', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('prompt');
  });

  it('names the variables to set when there is no key and no sampling', async () => {
    const s = await startWeb(null);
    const r = await s.call('web_fetch', { prompt: 'read https://example.invalid/a' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain('GEMINI_API_KEY');
  });

  it('skips loopback and private hosts', async () => {
    const ep = await gemini(() => undefined);
    const s = await startWeb(ep);
    const r = await s.call('web_fetch', { prompt: 'read http://localhost/x' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('All requested URLs were skipped: [Blocked Host] http://localhost/x');
    expect(r._meta?.[`${NS}/errorType`]).toBe('web_fetch_processing_error');
    const many = await s.call('web_fetch', {
      prompt: `read ${site.url}/page.html http://10.1.2.3/a http://[::1]:8080/b http://[::ffff:7f00:1]/c http://169.254.169.254/latest http://198.18.0.1/`,
    });
    expect(textOf(many)).toBe(
      `All requested URLs were skipped: [Blocked Host] ${site.url}/page.html, [Blocked Host] http://10.1.2.3/a, ` +
        '[Blocked Host] http://[::1]:8080/b, [Blocked Host] http://[::ffff:7f00:1]/c, [Blocked Host] http://169.254.169.254/latest, [Blocked Host] http://198.18.0.1/',
    );
    expect(ep.requests).toHaveLength(0);
    expect(site.hits).not.toContain('/page.html');
  });
});

describe('web_fetch primary path (URL context)', () => {
  it('inserts citations, appends sources, warns about skipped URLs and wraps the answer', async () => {
    const text = 'Alpha is first. Beta is second.';
    const ep = await gemini(() =>
      answer(text, {
        urlContextMetadata: {
          urlMetadata: [{ retrievedUrl: 'https://docs.invalid/a', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS' }],
        },
        groundingMetadata: {
          groundingChunks: [{ web: { uri: 'https://docs.invalid/a', title: 'Doc A' } }, { web: {} }],
          groundingSupports: [
            { segment: { startIndex: 0, endIndex: 15 }, groundingChunkIndices: [0] },
            { segment: { startIndex: 16, endIndex: 31 }, groundingChunkIndices: [0, 1] },
          ],
        },
      }),
    );
    const s = await startWeb(ep);
    const r = await s.call('web_fetch', { prompt: 'Summarise https://DOCS.invalid/a/ and http://localhost/x please' });
    expect(r.isError).toBeFalsy();
    expect(unwrap(r)).toBe(
      '[Warning] The following URLs were skipped:\n[Blocked Host] http://localhost/x\n\n' +
        'Alpha is first.[1] Beta is second.[1][2]\n\nSources:\n[1] Doc A (https://docs.invalid/a)\n[2] Untitled (Unknown URI)',
    );
    expect(r._meta?.[`${NS}/display`]).toBe('Content processed from prompt.');
    const req = ep.requestsOf('generateContent')[0];
    expect(req.model).toBe('gemini-2.5-flash');
    expect(req.body.tools).toEqual([{ urlContext: {} }]);
    expect(promptOf(req)).toBe(
      "Follow the user's instructions to process the authorized URLs.\n\n<user_instructions>\n" +
        'Summarise https://DOCS.invalid/a/ and http://localhost/x please\n</user_instructions>\n\n' +
        '<authorized_urls>\nhttps://docs.invalid/a\n</authorized_urls>\n',
    );
  });

  it('converts GitHub blob URLs, shows them in the confirmation, and honours decline', async () => {
    const ep = await gemini(() => answer('readme text'));
    const asked: any[] = [];
    let action: 'accept' | 'decline' = 'decline';
    const s = await startWeb(ep, ['--model', 'gemini-test-model'], {
      elicit: (p) => {
        asked.push(p);
        return action === 'accept' ? { action, content: { decision: 'proceed_once' } } : { action };
      },
    });
    const prompt = 'explain https://github.com/o/r/blob/main/f.md';
    const declined = await s.call('web_fetch', { prompt }, { [`${NS}/callId`]: 'w1' });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toBe('[Operation Cancelled] Reason: User denied execution.');
    expect(ep.requests).toHaveLength(0);
    expect(asked[0]._meta[`${NS}/confirmation`]).toEqual({
      kind: 'info',
      title: 'Confirm Web Fetch',
      callId: 'w1',
      prompt,
      urls: ['https://raw.githubusercontent.com/o/r/main/f.md'],
    });
    action = 'accept';
    const ok = await s.call('web_fetch', { prompt });
    expect(unwrap(ok)).toBe('readme text');
    expect(ep.requests[0].model).toBe('gemini-test-model');
    expect(promptOf(ep.requests[0])).toContain(
      '<authorized_urls>\nhttps://raw.githubusercontent.com/o/r/main/f.md\n</authorized_urls>',
    );
  });

  it('falls back to a direct fetch when the primary call fails or retrieves nothing', async () => {
    let n = 0;
    const ep = await gemini(() =>
      n++ === 0
        ? apiError(500, 'url context broke')
        : answer('', {
            urlContextMetadata: {
              urlMetadata: [{ retrievedUrl: 'x', urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_ERROR' }],
            },
          }),
    );
    const s = await startWeb(ep);
    for (let i = 0; i < 2; i++) {
      const r = await s.call('web_fetch', { prompt: 'read https://nowhere.invalid/doc' });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^All fallback fetch attempts failed: https:\/\/nowhere\.invalid\/doc: .*ENOTFOUND/);
      expect(r._meta?.[`${NS}/errorType`]).toBe('web_fetch_fallback_failed');
    }
    expect(ep.requests.map((q) => q.body.tools)).toEqual([[{ urlContext: {} }], [{ urlContext: {} }]]);
  });
});

describe('web_fetch fallback against a real site', () => {
  it('fetches HTML, redirects, plain text and invalid UTF-8 directly and asks the model', async () => {
    const ep = await gemini(() => answer('model answer </untrusted_context> end'));
    const s = await startWeb(ep, ['--allow-private-hosts']);
    const prompt = `compare ${site.url}/page.html ${site.url}/redirect/1 ${site.url}/bad-utf8 ${site.url}/no-type`;
    const r = await s.call('web_fetch', { prompt });
    expect(r.isError).toBeFalsy();
    expect(unwrap(r)).toBe('model answer &lt;/untrusted_context&gt; end');
    expect(r._meta?.[`${NS}/display`]).toBe('Content for 4 URL(s) processed using fallback fetch.');
    const reqs = ep.requestsOf('generateContent');
    expect(reqs).toHaveLength(1); // no URL-context call for private hosts
    expect(reqs[0].body.tools).toBeUndefined();
    const p = promptOf(reqs[0]);
    expect(p).toContain(`<user_instructions>\n${prompt}\n</user_instructions>`);
    expect(p).toMatch(new RegExp(`<source url="${site.url}/page.html">\\n[^<]*WELCOME PAGE`, 'i'));
    expect(p).toContain('linked words');
    expect(p).not.toContain('elsewhere.invalid');
    expect(p).not.toContain('pic.png');
    expect(p).toContain(`<source url="${site.url}/plain.txt">\njust plain text`);
    expect(p).toContain('ok \uFFFD\uFFFD end');
    expect(p).toContain('untyped HTML'.replace('HTML', 'html'));
    expect(p).not.toContain('<b>');
    expect(site.hits).toEqual(expect.arrayContaining(['/redirect/1', '/redirect/2', '/plain.txt']));
  });

  it('reports 404, binary, slow and huge bodies clearly', async () => {
    const ep = await gemini(() => answer('partial answer'));
    const s = await startWeb(ep, ['--allow-private-hosts', '--fetch-timeout-ms', '700']);
    const r = await s.call('web_fetch', {
      prompt: `check ${site.url}/missing ${site.url}/binary ${site.url}/sniffed-binary ${site.url}/slow ${site.url}/huge ${site.url}/p/small`,
    });
    expect(r.isError).toBeFalsy();
    const text = unwrap(r);
    expect(text).toContain('[Warning] The following URLs could not be fetched:\n');
    expect(text).toContain(`${site.url}/missing: Request failed with status code 404 Not Found`);
    expect(text).toContain(`${site.url}/binary: Binary content (application/octet-stream) cannot be processed as text`);
    expect(text).toContain(`${site.url}/sniffed-binary: Binary content (text/plain) cannot be processed as text`);
    expect(text).toContain(`${site.url}/slow: Request timed out after 700 ms`);
    expect(text.endsWith('partial answer')).toBe(true);
    const p = promptOf(ep.requestsOf('generateContent')[0]);
    expect(p).toContain(`<source url="${site.url}/p/small">\npage /p/small\n</source>`);
    expect(p).toContain('\n\n... [Content truncated due to size limit] ...');
    expect(p.length).toBeLessThan(260_000);
    expect(p.length).toBeGreaterThan(240_000);
  });

  it('fails when every fetch fails, and refuses a redirect into a private host', async () => {
    const ep = await gemini(() => answer('unused'));
    const s = await startWeb(ep, ['--allow-host', `127.0.0.1:${site.port}`]);
    const r = await s.call('web_fetch', { prompt: `read ${site.url}/to-private ${site.url}/missing` });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      `All fallback fetch attempts failed: ${site.url}/to-private: Blocked host (private or local network address): localhost:${site.port}, ` +
        `${site.url}/missing: Request failed with status code 404 Not Found`,
    );
    expect(r._meta?.[`${NS}/errorType`]).toBe('web_fetch_fallback_failed');
    expect(ep.requests).toHaveLength(0);
  });

  it('skips the eleventh request to one host within a minute', async () => {
    const ep = await gemini(() => answer('fine'));
    const s = await startWeb(ep, ['--allow-private-hosts']);
    const urls = Array.from({ length: 11 }, (_, i) => `${site.url}/p/${i}`);
    const r = await s.call('web_fetch', { prompt: `read ${urls.join(' ')}` });
    expect(unwrap(r)).toBe(`[Warning] The following URLs were skipped:\n[Rate limit exceeded] ${urls[10]}\n\nfine`);
    const again = await s.call('web_fetch', { prompt: `read ${site.url}/p/next` });
    expect(textOf(again)).toBe(`All requested URLs were skipped: [Rate limit exceeded] ${site.url}/p/next`);
  });

  it('reports a failing answer model', async () => {
    const ep = await gemini(() => apiError(500, 'model down'));
    const s = await startWeb(ep, ['--allow-private-hosts']);
    const r = await s.call('web_fetch', { prompt: `read ${site.url}/plain.txt` });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Error during fallback processing: model down (500 INTERNAL)');
    expect(r._meta?.[`${NS}/errorType`]).toBe('web_fetch_fallback_failed');
  });

  it('answers through MCP sampling when there is no key and the client offers it', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [ENTRY.web, '--allow-private-hosts'],
      env: { ...(process.env as Record<string, string>), GEMINI_API_KEY: '', GOOGLE_API_KEY: '' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'sampler', version: '1' }, { capabilities: { sampling: {} } });
    const sampled: string[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      const c = req.params.messages[0].content as { type: string; text: string };
      sampled.push(c.text);
      return { role: 'assistant', model: 'client-model', content: { type: 'text', text: 'sampled answer' } };
    });
    await client.connect(transport);
    try {
      const r = (await client.callTool({
        name: 'web_fetch',
        arguments: { prompt: `read ${site.url}/plain.txt` },
      })) as CallToolResult;
      expect(unwrap(r)).toBe('sampled answer');
      expect(sampled[0]).toContain('just plain text');
    } finally {
      await client.close();
    }
  });
});
