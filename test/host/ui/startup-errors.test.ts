import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, TmuxUi } from './tmux.js';

describeTmux('chat start-up with unusable settings', () => {
  let ui: TmuxUi | undefined;
  afterEach(() => ui?.kill());

  it('a settings file that does not parse ends the run before the screen opens: file, line, column, exit 52', async () => {
    const ws = tempDir('ui-ws-');
    const home = tempDir('ui-home-');
    mkdirSync(join(home, '.gemini'));
    const file = join(home, '.gemini', 'settings.json');
    writeFileSync(file, '{\n  // my settings\n  "model": { "name": "x" }\n  "tools": {}\n}\n');
    ui = TmuxUi.start({
      cwd: ws,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'test-key' },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
    });
    const screen = await ui.waitFor('[exited');
    expect(screen).toContain('[exited 52]');
    expect(screen.replace(/\n/g, '')).toContain(`${file}:4:3:`);
    expect(screen).not.toContain('Type your message');
  });
});
