import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { runHost, workspace } from '../../helpers/run-host.js';
import { type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import {
  expectTrackWritten,
  newTrackScript,
  PLAN,
  TRACK,
  writeConductorExtension,
  writeConductorProject,
} from '../extensions/conductor-fixture.js';
import { describeTmux, startChat, type TmuxUi } from './tmux.js';
import { functionResponseOf } from '../../helpers/request-body.js';

describeTmux("conductor's /conductor:newTrack in the chat: the user answers, approves the plan, gets the track", () => {
  const ws = workspace();
  const session = 'conductor-chat';
  const plans = join(defaultProjectTempDir(ws.cwd, {}, ws.home), session, 'plans');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    writeConductorProject(ws.cwd);
    const src = writeConductorExtension(join(tempDir('gmc-conductor-'), 'conductor'));
    const install = await runHost(['extensions', 'install', src, '--consent'], { ws });
    expect(install.code, install.stderr).toBe(0);
    gemini = await startScriptedGemini(newTrackScript(ws.cwd, plans));
    ui = await startChat({
      ws,
      url: gemini.url,
      width: 120,
      height: 50,
      args: ['--approval-mode', 'auto_edit', '--session-id', session],
    });
  }, 120_000);

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  const answerOf = (id: string): string => functionResponseOf(gemini.requestsOf('streamGenerateContent'), id);

  it('runs the command file: questions in a form, the todo panel, the plan dialog, then the track files', async () => {
    ui.submit('/conductor:newTrack add dark mode');
    // The question arrives as a form while the todo list stands above the input, in plan mode.
    let screen = await ui.waitFor((s) => s.includes('Header — An icon in the header') && s.includes('Todo 1/4'));
    expect(screen).toContain('» Ask about the feature');
    expect(screen).toMatch(/· plan ·/);
    ui.keys('Right');
    await ui.waitFor('Settings page — A toggle in settings▏');
    ui.keys('Enter');
    await ui.waitFor('› Switch: other');
    ui.keys('Enter');
    // The next question lets the user pick several answers.
    await ui.waitFor('1) Editor — The note editor');
    ui.type('Editor, 3');
    await ui.waitFor('Editor, 3▏');
    ui.keys('Enter');
    await ui.waitFor('› Scope: other');
    ui.type('Settings');
    await ui.waitFor('Settings▏');
    ui.keys('Enter');
    // The drafted spec to review shows once, line by line, never as escaped `\n` text.
    screen = await ui.waitFor('Approve — The spec is right');
    expect(screen).toContain('│## Overview');
    expect(screen).not.toContain('\\n');
    expect(screen.split('Does this accurately capture the requirements?')).toHaveLength(2);
    ui.keys('Right');
    await ui.waitFor('Approve — The spec is right▏');
    ui.keys('Enter');
    await ui.waitFor('› Confirm Spec: other');
    ui.keys('Enter');
    // The plan is presented for approval; the panel has moved on.
    screen = await ui.waitFor('[y] approve the plan');
    expect(screen).toContain('Plan Approval');
    expect(screen).toContain('Task: Implement the theme switch');
    expect(screen).toContain('Todo 2/4');
    expect(readFileSync(join(plans, 'plan.md'), 'utf8')).toBe(PLAN);
    ui.type('y');
    screen = await ui.waitFor(`New track '${TRACK}' has been created`);
    await waitFor(() => answerOf('t4') !== '', 'the answer to the last write_todos');
    expect(answerOf('a1')).toContain(
      JSON.stringify(JSON.stringify({ answers: { '0': 'Settings page' } })).slice(1, -1),
    );
    expect(answerOf('a2')).toContain(
      JSON.stringify(JSON.stringify({ answers: { '0': 'Editor, Dialogs, Settings' } })).slice(1, -1),
    );
    expect(answerOf('x1')).toContain(
      'Plan approved. Switching to Auto-Edit mode (edits will be applied automatically).',
    );
    expect(screen).toMatch(/· auto-edit ·/);
    // Every step done: the panel has made way, the footer keeps the count.
    expect(screen).toContain('todo 4/4');
    expectTrackWritten(ws.cwd);
  }, 180_000);
});
