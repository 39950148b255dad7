import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { textOf } from '../../helpers/mcp.js';
import { connectHttp, startHttpServer } from '../common/http-server.js';
import { answer, gemini } from './harness.js';
import { startSite, type TestSite } from './site.js';

let site: TestSite;
beforeAll(async () => {
  site = await startSite();
});
afterAll(() => site.close());
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** The web server over HTTP, answering with the scripted model; `extra` adds --stateless. */
async function webOverHttp(extra: string[]) {
  const ep = await gemini(() => answer('fine'));
  const env = { ...process.env, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: ep.url, GEMINI_MODEL: '' };
  return startHttpServer(ENTRY.web, ['--allow-private-hosts', ...extra], children, env);
}

/** One web_fetch through a client of its own (its own session, or none when stateless). */
async function fetchAs(url: string, pages: string[]) {
  const client = await connectHttp(url);
  try {
    return await client.callTool({ name: 'web_fetch', arguments: { prompt: `read ${pages.join(' ')}` } });
  } finally {
    await client.close();
  }
}

// The limit (10 fetches a minute per host) is politeness toward the host: it holds for the server process,
// whichever session or stateless request the fetches come in on.
describe.each([
  ['--stateless, a server per request', ['--stateless']],
  ['sessions, a server per session', []],
])('web_fetch rate limit over HTTP (%s)', (_name, extra) => {
  it('ten fetches of a host in one client, the eleventh in another is skipped; another host is not', async () => {
    const srv = await webOverHttp(extra);
    const pages = Array.from({ length: 10 }, (_, i) => `${site.url}/p/${i}`);
    const first = await fetchAs(srv.url, pages);
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    expect(textOf(first)).toContain('fine');
    expect(textOf(first)).not.toContain('Rate limit');

    const eleventh = await fetchAs(srv.url, [`${site.url}/p/10`]);
    expect(eleventh.isError).toBe(true);
    expect(textOf(eleventh)).toBe(`All requested URLs were skipped: [Rate limit exceeded] ${site.url}/p/10`);

    // The same site under another name is another host to the limit.
    const other = `http://localhost:${site.port}/p/other`;
    const elsewhere = await fetchAs(srv.url, [other]);
    expect(elsewhere.isError, JSON.stringify(elsewhere)).toBeFalsy();
    expect(textOf(elsewhere)).toContain('fine');
  });
});
