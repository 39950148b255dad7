import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

const OLD = `${Array.from({ length: 300 }, (_, i) => `line_${i} = old`).join('\n')}\n`;
const NEW = `${Array.from({ length: 300 }, (_, i) => `line_${i} = new`).join('\n')}\n`;

describeTmux('a 300-line rewrite in the dialog and on its card', () => {
  const ws = workspace();
  const target = ws.file('big.conf', OLD);
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('filesystem'));
    gemini = await startScriptedGemini([
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: target, content: NEW } }),
      reply.text('Rewritten.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 80, height: 24 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('says +300 −300 first, shows each old line above its new one, and Home / End / g / G jump', async () => {
    ui.submit('rewrite big.conf');
    const screen = await ui.waitFor('[y] allow once');
    expect(screen).toContain('+300 −300');
    const rows = screen.split('\n');
    const old0 = rows.findIndex((r) => r.includes('- line_0 = old'));
    expect(old0, screen).toBeGreaterThanOrEqual(0);
    expect(rows[old0 + 1], screen).toContain('+ line_0 = new');
    expect(screen).not.toContain('line_299');
    ui.keys('End');
    await ui.waitFor('+ line_299 = new');
    ui.keys('Home');
    await ui.waitFor((s) => s.includes('- line_0 = old') && !s.includes('line_299'));
    ui.type('G');
    await ui.waitFor('+ line_299 = new');
    ui.type('g');
    await ui.waitFor((s) => s.includes('+300 −300') && !s.includes('line_299'));
  });

  it('after approval the card says +300 −300 and previews the change with both sides', async () => {
    ui.type('y');
    const screen = await ui.waitFor('Rewritten.');
    expect(readFileSync(target, 'utf8')).toBe(NEW);
    expect(screen).toContain('+300 −300');
    expect(screen).toContain('- line_0 = old');
    expect(screen).toContain('+ line_0 = new');
  });
});
