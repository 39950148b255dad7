import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

describe('ACP start-up notices on stderr', () => {
  it('are made safe for the terminal: a file name with escape sequences is shown, not obeyed', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const dir = join(ws.home, '.gemini', 'commands');
    mkdirSync(dir, { recursive: true });
    // An invalid command file whose name clears the screen and retitles the terminal.
    writeFileSync(join(dir, 'bad\x1b[2J\x1b]0;pwned\x07.toml'), 'prompt = [unclosed');
    const ep = await endpoint(reply.text('unused'));
    const run = startAcp({ ws, url: ep.url });
    try {
      await run.open(ws.cwd);
      expect(run.stderr()).toContain('Skipping invalid command file');
      expect(run.stderr()).not.toMatch(/[\x1b\x07]/);
    } finally {
      await run.close();
    }
  });
});
