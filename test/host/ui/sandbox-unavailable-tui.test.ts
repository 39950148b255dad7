import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { pathWithoutBwrap } from '../../helpers/path-without-bwrap.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

describeTmux('chat started with -s where no sandbox can be built', () => {
  let ui: TmuxUi | undefined;
  afterEach(() => ui?.kill());

  it('the start line says what to install, not only "failed: shell"', async () => {
    const ws = tempDir('ui-ws-');
    const home = tempDir('ui-home-');
    const gemini = join(home, '.gemini');
    mkdirSync(gemini);
    writeFileSync(
      join(gemini, 'settings.json'),
      JSON.stringify({
        mcp: { excluded: ['filesystem', 'web', 'memory'] },
        security: { folderTrust: { enabled: false } },
      }),
    );
    ui = TmuxUi.start({
      cwd: ws,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: home, HOME: home, GEMINI_API_KEY: 'test-key', PATH: pathWithoutBwrap() },
      argv: [process.execPath, requireBuilt(ENTRY.host), '-s'],
      width: 220,
    });
    const screen = await ui.waitFor((s) => s.includes(INPUT_READY) && s.includes('failed: shell'));
    const flat = screen.replace(/\n/g, '');
    expect(flat).toMatch(/failed: shell \(\/mcp for why\) · sandbox: bubblewrap \(bwrap\) is not on PATH; install it/);
    expect(flat).toContain('apt-get install bubblewrap');
  });
});
