import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, type TmuxUi, startChat } from '../ui/tmux.js';
import { writeDemoExtension } from './extension-fixture.js';

/** An installed extension whose context file (DEMO.md) goes into every request, beside a project AGENTS.md. */
async function setup() {
  const ws = workspace();
  ws.settings({ ...ONLY('memory'), context: { fileName: ['AGENTS.md', 'GEMINI.md'] } });
  ws.file('AGENTS.md', 'Project rule from AGENTS.md.\n');
  const src = writeDemoExtension(join(tempDir('gmc-ext-ctx-'), 'demo-ext'), { noSettings: true });
  const install = await runHost(['extensions', 'install', src, '--consent'], { ws, stdin: '\n' });
  expect(install.code, install.stderr).toBe(0);
  return ws;
}

describe('extension context counts as context', () => {
  const endpoint = scriptedEndpoints();

  it('-p "/memory list" lists the project file and the extension file with where each comes from', async () => {
    const ws = await setup();
    // Nothing goes to the model: the endpoint only makes the credentials complete.
    const ep = await endpoint();
    const r = await runHost(['-p', '/memory list'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${join(ws.cwd, 'AGENTS.md')} (project)`);
    expect(r.stdout).toMatch(/demo-ext\/DEMO\.md \(extension demo-ext\)/);
    const show = await runHost(['-p', '/memory show'], { ws, url: ep.url });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('Project rule from AGENTS.md.');
    expect(show.stdout).toContain('Always answer like a pirate.');
    expect(ep.requestsOf('streamGenerateContent')).toHaveLength(0);
  });
});

describeTmux('extension context in the chat', () => {
  let ui: TmuxUi;
  let gemini: ScriptedGemini;

  beforeAll(async () => {
    const ws = await setup();
    gemini = await startScriptedGemini([reply.text('unused')]);
    ui = await startChat({ ws, url: gemini.url, width: 140, height: 30 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('the start line counts both files by their real names; /memory list shows both', async () => {
    await ui.waitFor('2 context files (AGENTS.md, DEMO.md) loaded');
    ui.submit('/memory list');
    const screen = await ui.waitFor('Context files in use (2)');
    expect(screen).toMatch(/AGENTS\.md \(project\)/);
    expect(screen).toMatch(/DEMO\.md \(extension demo-ext\)/);
  });
});
