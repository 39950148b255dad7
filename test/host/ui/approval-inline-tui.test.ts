import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { chunk, reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

const OLD = Array.from({ length: 60 }, (_, i) => `setting_${i} = old`).join('\n') + '\n';
const NEW = Array.from({ length: 60 }, (_, i) => `setting_${i} = new`).join('\n') + '\n';

describeTmux('the approval dialog on a small terminal', () => {
  const ws = workspace();
  const target = ws.file('app.conf', OLD);
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('filesystem'));
    // One model message: its text, then the edit it proposes (a 60-line rewrite: a diff taller than the screen).
    const args = { file_path: target, content: NEW };
    gemini = await startScriptedGemini([
      {
        method: 'generateContentStream',
        response: [
          chunk([{ text: 'I will switch every setting in app.conf to the new value.' }], false),
          chunk([{ functionCall: { id: 'w1', name: 'filesystem__write_file', args } }], true),
        ],
      },
      reply.text('All settings switched.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 80, height: 24 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('the model text and the pending card stay visible above the dialog; its long diff scrolls; keys answer', async () => {
    ui.submit('switch the settings');
    const screen = await ui.waitFor('[y] allow once');
    const rows = screen.split('\n');
    const textRow = rows.findIndex((r) => r.includes('I will switch every setting'));
    const cardRow = rows.findIndex((r) => r.includes('filesystem__write_file') && r.includes('app.conf'));
    const dialogRow = rows.findIndex((r) => r.includes('Confirm Write: app.conf'));
    const choicesRow = rows.findIndex((r) => r.includes('[y] allow once'));
    expect(textRow, screen).toBeGreaterThanOrEqual(0);
    expect(cardRow, screen).toBeGreaterThan(textRow);
    expect(choicesRow, screen).toBeGreaterThan(cardRow);
    expect(dialogRow, screen).toBeGreaterThan(cardRow);
    expect(screen).toContain('scroll');
    // The end of the diff is below the fold until scrolled to.
    expect(screen).not.toContain('setting_59 = new');
    // 120 diff lines, 10 per PageDown.
    ui.keys(...Array.from({ length: 13 }, () => 'PageDown'));
    await ui.waitFor('setting_59 = new');
    ui.type('y');
    await ui.waitFor('All settings switched.');
    expect(readFileSync(target, 'utf8')).toBe(NEW);
  });
});
