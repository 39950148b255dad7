import { afterEach, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

const dailyQuota = reply.error(429, 'You exceeded your current quota.', {
  details: [
    {
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations: [{ quotaMetric: 'generate_content_requests', quotaId: 'GenerateRequestsPerDayPerProjectPerModel' }],
    },
  ],
});

describeTmux('the chat on a usage limit', () => {
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  afterEach(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('says so in one line, continues on the fallback, and /model shows the one in use', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    gemini = await startScriptedGemini([dailyQuota, reply.text('flash answers'), reply.text('still flash')]);
    ui = await startChat({ ws, url: gemini.url, width: 110, height: 30 });
    await ui.waitFor('gemini-3-pro-preview ·');
    ui.submit('hello');
    const answered = await ui.waitFor('flash answers');
    expect(answered).toContain(
      'Usage limit reached for gemini-3-pro-preview. Switched to fallback model gemini-3-flash-preview.',
    );
    expect(answered).not.toMatch(/Error|retry/);
    await ui.waitFor('gemini-3-flash-preview ·');

    ui.submit('/model');
    const listed = await ui.waitFor('In use:');
    expect(listed).toMatch(/● auto/);
    expect(listed).toContain(
      'In use: gemini-3-flash-preview (fallback: the usage limit of gemini-3-pro-preview was reached)',
    );

    // The session stays on the fallback: the next message goes there directly.
    ui.submit('more');
    await ui.waitFor('still flash');
    expect(gemini.requestsOf('streamGenerateContent').map((q) => q.model)).toEqual([
      'gemini-3-pro-preview',
      'gemini-3-flash-preview',
      'gemini-3-flash-preview',
    ]);
  });
});
