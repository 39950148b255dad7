import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { hook } from './record-hook.js';

describe('hook messages headless', () => {
  const endpoint = scriptedEndpoints();

  it('a SessionStart systemMessage is written to stderr as it is, as Gemini CLI writes it; stdout stays the answer', async () => {
    const ws = workspace();
    const log = join(ws.home, 'hooks.log');
    ws.settings({
      ...ONLY('filesystem'),
      hooks: {
        SessionStart: [
          {
            hooks: [
              {
                type: 'command',
                name: 'greeter',
                command: hook(log, 'json', JSON.stringify({ systemMessage: 'Welcome from the session hook' })),
              },
            ],
          },
        ],
      },
    });
    for (const format of ['text', 'json']) {
      const ep = await endpoint(reply.text('hello there'));
      const r = await runHost(['-p', 'hi', '-o', format], { ws, url: ep.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr.split('\n')).toContain('Welcome from the session hook');
      expect(r.stdout).not.toContain('Welcome');
      expect(r.stdout).toContain('hello there');
    }
  });
});
