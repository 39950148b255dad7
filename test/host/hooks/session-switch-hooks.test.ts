import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../host/core/session.js';
import { switchSession } from '../../../host/core/session-switch.js';
import { reply, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { cmd, hook, records } from './record-hook.js';

const payloads = (log: string) => records(log).map((r) => r.payload);

describe('hooks follow the chat to a new session on /clear and /resume (in-process chat session)', async () => {
  const ws = workspace();
  const log = join(ws.home, 'hooks.log');
  ws.settings({
    ...ONLY(),
    hooks: {
      SessionStart: cmd(hook(log, 'context', 'fresh start')),
      SessionEnd: cmd(hook(log, 'pass')),
      BeforeAgent: cmd(hook(log, 'pass')),
    },
  });
  const ep = await startScriptedGemini([reply.text('One.'), reply.text('Two.'), reply.text('Three.')]);
  const session = await createSession({
    cwd: ws.cwd,
    interactive: true,
    env: {
      ...process.env,
      GEMINI_CLI_HOME: ws.home,
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: ep.url,
      GEMINI_MODEL: '',
    },
  });
  afterAll(async () => {
    await session.close();
    await ep.close();
  });
  const send = async (text: string) => {
    for await (const _ of session.client.sendMessageStream([{ text }], new AbortController().signal, text));
  };

  it('/clear ends the session left; SessionStart and later hooks name the new one; its context goes out next', async () => {
    const dir = session.runtime.projectTempDir;
    const first = session.sessionId;
    await send('hi');
    const cleared = await switchSession(session, dir, { kind: 'clear', cwd: ws.cwd });
    expect(cleared.recorder.id).not.toBe(first);
    expect(session.sessionId).toBe(cleared.recorder.id);
    await send('again');
    const resumed = await switchSession(session, dir, { kind: 'resume', ref: first });
    expect(resumed.loaded.id).toBe(first);
    await send('back');
    const seen = payloads(log).map((p) => [p.hook_event_name, p.source ?? p.reason ?? '', p.session_id]);
    const second = cleared.recorder.id;
    expect(seen).toEqual([
      ['SessionStart', 'startup', first],
      ['BeforeAgent', '', first],
      ['SessionEnd', 'clear', first],
      ['SessionStart', 'clear', second],
      ['BeforeAgent', '', second],
      ['SessionStart', 'resume', first],
      ['BeforeAgent', '', first],
    ]);
    expect(payloads(log)[4].transcript_path).toBe(cleared.recorder.file);
    // Each SessionStart's context went with the first message after it.
    const bodies = ep.requestsOf('streamGenerateContent').map((r: { body: unknown }) => JSON.stringify(r.body));
    expect(bodies.map((b: string) => b.split('fresh start').length - 1)).toEqual([1, 1, 2]);
  });
});
