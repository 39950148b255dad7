import { describe, expect, it } from 'vitest';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';
import { startScriptedGemini } from '../../helpers/scripted-gemini.mjs';

describe('an unreachable model endpoint', () => {
  it('ends the run within seconds, naming the endpoint and what to check (real backoff delays)', async () => {
    const closed = await startScriptedGemini([]);
    await closed.close(); // a port nothing listens on
    const ws = workspace();
    ws.settings(ONLY());
    const t0 = Date.now();
    // The default delays (5 s doubling, ten attempts): before, this retried for minutes.
    const r = await runHost(['-p', 'x'], { ws, url: closed.url, env: { GEMINI_MCP_RETRY_DELAY_MS: undefined } });
    const took = Date.now() - t0;
    expect(r.code, r.stderr).toBe(1);
    expect(took).toBeLessThan(15_000);
    expect(r.stderr).toContain(`Cannot reach the Gemini API at ${closed.url}`);
    expect(r.stderr).toContain('ECONNREFUSED');
    expect(r.stderr).toContain('GOOGLE_GEMINI_BASE_URL');
    expect(r.stderr.match(/retrying in/g)?.length).toBe(2); // a few quick retries
  }, 30_000);

  it('an unknown host is reported the same way', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const url = 'http://no-such-host.invalid';
    const r = await runHost(['-p', 'x'], { ws, url, env: { GEMINI_MCP_RETRY_DELAY_MS: undefined } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`Cannot reach the Gemini API at ${url}`);
    expect(r.stderr).toMatch(/ENOTFOUND|EAI_AGAIN/);
  }, 30_000);
});
