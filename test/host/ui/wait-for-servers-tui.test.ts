import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

const FAULT = join(import.meta.dirname, '../../fixtures/fault-server.mjs');

describeTmux('the chat waits for its servers before it sends', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    // A server that takes 2.5 s to start: the prompt is typed while it connects.
    ws.settings({
      ...ONLY(),
      mcpServers: {
        slow: { command: process.execPath, args: [FAULT], env: { FAULT_START_DELAY_MS: '2500' }, startup: 'eager' },
      },
    });
    gemini = await startScriptedGemini([reply.text('Answered with every tool.')]);
    ui = await startChat({ ws, url: gemini.url, width: 120, height: 30 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('a prompt typed while a server connects says it waits, and the request then declares its tools', async () => {
    ui.submit('hello');
    await ui.waitFor('Waiting for MCP servers to initialize');
    await ui.waitFor('Answered with every tool.');
    const body = JSON.stringify(gemini.requestsOf('streamGenerateContent')[0]!.body);
    expect(body).toContain('slow__echo');
  });
});
