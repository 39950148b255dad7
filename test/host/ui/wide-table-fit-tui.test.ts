import { afterAll, beforeAll, expect, it } from 'vitest';
import { textWidth } from '../../../host/ui/text/text-width.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

/** Wider than 80 columns: it must shrink, wrapping inside cells. */
const TABLE = [
  '| Model | Context window | Strengths | Status |',
  '|---|---|---|---|',
  '| gemini-2.5-pro | 1,048,576 tokens | Deep reasoning over large codebases and long documents | 🚀 shipped |',
  '| gemini-2.5-flash | 1,048,576 tokens | Fast answers for everyday coding questions | 🎉 default |',
  '| gemini-3-pro-preview | 1,048,576 tokens | The newest model, with the strongest agentic coding | ✅ preview |',
  '',
  'END-OF-TABLE',
].join('\n');

describeTmux('a wide markdown table at 80 columns', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    gemini = await startScriptedGemini([reply.text(TABLE)]);
    ui = start();
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  const start = (...args: string[]) =>
    TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host), ...args],
      width: 80,
      height: 40,
    });

  it('every row ends with its border on the same line, within the pane; words are not cut', async () => {
    ui.submit('models table');
    checkTable(await ui.waitFor('END-OF-TABLE'));
  });

  it('a resumed session draws the table the same way', async () => {
    ui.kill();
    ui = start('--resume', 'latest');
    checkTable(await ui.waitFor('END-OF-TABLE'));
  });
});

/** The table's rows on the screen: each within the pane, its border on its own line, no word cut. */
function checkTable(screen: string): void {
  const rows = screen.split('\n').filter((l) => /[│┌├└┐┘]/.test(l) && !l.includes('models table'));
  for (const r of rows) expect(r.trimEnd(), screen).toMatch(/[│┐┤┘]$/);
  // Each row starts with its border (the first one after the answer's ✦ mark).
  for (const r of rows) expect(r.trimEnd(), screen).toMatch(/^(✦ |\s*)[│┌├└]/);
  // Every row as wide as the borders, in the terminal's columns.
  expect(new Set(rows.map((r) => textWidth(r.trimEnd()))).size, screen).toBe(1);
  // Model names are short enough to keep whole: the column is sized by its content.
  expect(screen).toContain('gemini-2.5-pro ');
  expect(screen).toContain('gemini-3-pro-preview');
  expect(screen).not.toMatch(/gemini-3-pro-previe\s/);
}
