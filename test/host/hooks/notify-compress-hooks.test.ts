import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../host/core/session.js';
import { reply, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { ScriptedConfirmer } from '../../helpers/scripted-confirmer.js';
import { waitFor } from '../../helpers/wait.js';
import { hook, records } from './record-hook.js';

const payloads = (log: string) => records(log).map((r) => r.payload);

describe('Notification and PreCompress hooks (in-process chat session)', async () => {
  const ws = workspace();
  const log = join(ws.home, 'hooks.log');
  ws.settings({
    ...ONLY('filesystem'),
    hooks: {
      Notification: [{ matcher: 'ToolPermission', hooks: [{ type: 'command', command: hook(log, 'pass') }] }],
      PreCompress: [{ matcher: 'manual', hooks: [{ type: 'command', command: hook(log, 'pass') }] }],
    },
  });
  const target = join(ws.cwd, 'n.txt');
  const ep = await startScriptedGemini([
    reply.text('Hello.'),
    reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: target, content: 'n\n' } }),
    reply.text('Written.'),
    {
      method: 'generateContent',
      response: {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: '<state_snapshot>s</state_snapshot>' }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
      },
    },
  ]);
  const confirmer = new ScriptedConfirmer({ decision: 'proceed_once' });
  const session = await createSession({
    cwd: ws.cwd,
    interactive: true,
    confirmer,
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

  it('Notification fires when a call waits for approval; PreCompress fires with trigger manual before a summary', async () => {
    const signal = new AbortController().signal;
    await session.runtime.manager.whenReady();
    for await (const _ of session.client.sendMessageStream([{ text: 'hi' }], signal, 'p1'));
    for await (const _ of session.client.sendMessageStream([{ text: 'write n' }], signal, 'p2'));
    expect(readFileSync(target, 'utf8')).toBe('n\n');
    expect(confirmer.seen).toHaveLength(1);
    const info = await session.client.compress(signal, true);
    expect(info.status).toBe('compressed');
    await waitFor(() => payloads(log).length >= 2, 'the Notification and PreCompress hook records');
    const got = payloads(log);
    expect(got.map((p) => p.hook_event_name).sort()).toEqual(['Notification', 'PreCompress']);
    const note = got.find((p) => p.hook_event_name === 'Notification');
    expect(note).toMatchObject({
      notification_type: 'ToolPermission',
      message: 'Tool Confirm Write: n.txt requires editing',
      details: { type: 'edit', fileName: 'n.txt', filePath: target },
    });
    expect(got.find((p) => p.hook_event_name === 'PreCompress').trigger).toBe('manual');
  });
});
