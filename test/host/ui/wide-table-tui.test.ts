import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { INPUT_READY, hasTmux, TmuxUi } from './tmux.js';

const TABLE = [
  '| Task | 状态 | Note |',
  '|---|---|---|',
  '| 部署 | ✅ done | 🚀 shipped |',
  '| Check | ⚠️ warn | ❤️ ok ✔️ |',
  '| Plain | no | text |',
  '',
  'END-OF-TABLE',
].join('\n');

describe.skipIf(!hasTmux)('a markdown table with wide characters', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    gemini = await startScriptedGemini([reply.text(TABLE)]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: {
        GEMINI_CLI_HOME: ws.home,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        // Long enough a wait to be seen counting down.
        GEMINI_MCP_RETRY_DELAY_MS: '4000',
      },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 80,
      height: 30,
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('keeps every border where the terminal draws it (CJK, emoji, emoji with a variation selector)', async () => {
    ui.submit('status table');
    const screen = await ui.waitFor('END-OF-TABLE');
    const rows = screen.split('\n').filter((l) => /[│┌├└]/.test(l) && !l.includes('status table'));
    expect(rows.length, screen).toBe(7);
    // tmux's capture holds one character per cell (a wide one takes two); the right border is the
    // last cell of every row, in the same column.
    const col = (l: string) => {
      let c = 0;
      for (const ch of l.trimEnd())
        c += /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]|\p{Emoji_Presentation}/u.test(ch)
          ? 2
          : ch === '\ufe0f'
            ? 0
            : 1;
      return c;
    };
    const ends = rows.map(col);
    expect(new Set(ends).size, rows.join('\n')).toBe(1);
    for (const r of rows) expect(r.trimEnd(), rows.join('\n')).toMatch(/[│┐┤┘]$/);
  });

  it('a 503 keeps its backoff, the wait counting down in the footer, then the answer comes', async () => {
    await ui.waitFor(INPUT_READY);
    gemini.push(reply.error(503, 'The model is overloaded.'), reply.text('after the retry'));
    ui.submit('try again');
    const screen = await ui.waitFor(/\[503\] The model is overloaded\.: retry 2\/\d+ in \ds/);
    expect(screen).not.toContain('after the retry');
    await ui.waitFor('after the retry', 20_000);
  });
});
