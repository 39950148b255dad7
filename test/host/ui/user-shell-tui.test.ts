import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { INPUT_READY, hasTmux, type TmuxUi, startChat } from './tmux.js';

describe.skipIf(!hasTmux)('shell commands the user types (!cmd)', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('shell'));
    gemini = await startScriptedGemini([]);
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 40 });
    await ui.waitFor('MCP 1/1');
  }, 60_000);

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('run at once without a dialog, output shown exactly (leading spaces kept), nothing sent to the model', async () => {
    ui.submit(`!printf '   three spaces\\n\\tdone-marker\\n' > out.txt; cat out.txt`);
    const screen = await ui.waitFor(/│ +done-marker/);
    expect(screen).not.toContain('allow once');
    expect(screen).toMatch(/│ {4}three spaces/);
    expect(screen).not.toContain('Output:');
    expect(screen).not.toContain('PGID');
    expect(gemini.requests).toHaveLength(0);
  });

  it('long output: one truncation, one notice saying how to see the rest, no internal markers', async () => {
    await ui.waitFor(INPUT_READY);
    ui.submit('!seq 1 30000');
    // The card's final look: the live terminal shows the end before the command has ended.
    const screen = await ui.waitFor((s) => /│ 30000/.test(s) && /the whole of it is in/.test(s));
    expect(screen).not.toContain('untrusted_context');
    expect(screen).not.toContain('PGID');
    expect(screen).not.toContain('Output too large');
    expect(screen.match(/ctrl\+o to expand|full output|whole of it is in/g)?.length, screen).toBe(1);
    expect(screen).toMatch(/the whole of it is in .*\n?.*tool-outputs/);
  });

  it('in plan mode the refusal is said in words for the user', async () => {
    await ui.waitFor(INPUT_READY);
    for (let i = 0; i < 3; i++) ui.keys('BTab');
    await ui.waitFor(/· plan ·/);
    ui.submit('!echo hi');
    const screen = await ui.waitFor(/plan mode/i);
    expect(screen).toMatch(/Plan mode is on: `!` commands do not run/);
    expect(screen).not.toContain('present your plan');
    expect(gemini.requests).toHaveLength(0);
  });
});
