import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptEntry, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { EVERYTHING } from '../mcp/everything-helpers.js';
import { hasTmux, type TmuxUi, startChat } from './tmux.js';

/** A trusted server's sampling runs without a prompt; /stats still shows what it spent. */
describe.skipIf(!hasTmux)('the chat counts sampling per server in /stats', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings({ ...ONLY(), mcpServers: { trusted: { command: process.execPath, args: [EVERYTHING], trust: true } } });
    gemini = await startScriptedGemini([
      reply.calls({ id: 's1', name: 'trusted__trigger-sampling-request', args: { prompt: 'hi', maxTokens: 5 } }),
      {
        method: 'generateContent',
        response: {
          candidates: [{ content: { role: 'model', parts: [{ text: 'sampled' }] }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 700, candidatesTokenCount: 300, totalTokenCount: 1000 },
        },
      } as ScriptEntry,
      reply.text('all done'),
    ]);
    ui = await startChat({ ws, url: gemini.url, height: 50, width: 140 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('one sampling request of the trusted server, with its tokens', async () => {
    ui.submit('sample something');
    await ui.waitFor('all done', 60_000);
    ui.submit('/stats');
    const screen = await ui.waitFor('Sampling (servers using the model)', 20_000).catch(() => ui.capture());
    expect(screen).toContain('Sampling (servers using the model)');
    expect(screen).toMatch(/trusted\s+1\s+1\s+0\s+0\s+700\s+300/);
  });
});
