import { chmodSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { hasTmux, TmuxUi } from './tmux.js';

describe.skipIf(!hasTmux)('Gemini CLI habits in the chat', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('memory'));
    ws.file('GEMINI.md', 'Project rule: be brief.\n');
    gemini = await startScriptedGemini([reply.text('hello back from the model')]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host), '-i', 'hello from -i', '--session-id', 'habit-run-1'],
      width: 100,
      height: 30,
    });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('-i opens the chat with the prompt already sent', async () => {
    await ui.waitFor('hello back from the model');
    expect(ui.capture()).toContain('> hello from -i');
    expect(JSON.stringify(gemini.requestsOf('streamGenerateContent')[0]!.body)).toContain('hello from -i');
  });

  it('Ctrl+Y turns yolo on, and again back to the mode before', async () => {
    ui.keys('C-y');
    await ui.waitFor(/· YOLO ·/);
    ui.keys('C-y');
    await ui.waitFor(/· default ·/);
  });

  it('/export-session FILE writes the session (named by --session-id) as JSON', async () => {
    ui.submit('/export-session out/session.json');
    await ui.waitFor('Session exported to');
    const data = JSON.parse(readFileSync(join(ws.cwd, 'out', 'session.json'), 'utf8'));
    expect(data.sessionId).toBe('habit-run-1');
    expect(JSON.stringify(data.history)).toContain('hello back from the model');
    expect(statSync(join(ws.cwd, 'out', 'session.json')).mode & 0o777).toBe(0o600);
  });

  it('/export-session and /chat share onto a planted link write a private file, not through the link', async () => {
    const victim = join(ws.cwd, 'victim.txt');
    writeFileSync(victim, 'victim');
    chmodSync(victim, 0o666);
    for (const [cmd, name, said] of [
      ['/export-session', 'planted.json', 'Session exported to'],
      ['/chat share', 'planted.md', 'Conversation written to'],
    ] as const) {
      symlinkSync(victim, join(ws.cwd, name));
      ui.submit(`${cmd} ${name}`);
      await ui.waitFor(`${said} ${join(ws.cwd, name)}`);
      expect(lstatSync(join(ws.cwd, name)).isSymbolicLink()).toBe(false);
      expect(statSync(join(ws.cwd, name)).mode & 0o777).toBe(0o600);
    }
    expect(readFileSync(victim, 'utf8')).toBe('victim');
  });

  it('/resume shows an id chosen with --session-id whole', async () => {
    ui.submit('/resume');
    await ui.waitFor(/Resume a session[\s\S]*habit-run-1/);
    ui.keys('Escape');
    await ui.waitFor('Resume closed.');
  });

  it('/memory list names the context files in use', async () => {
    ui.submit('/memory list');
    await ui.waitFor(/Context files in use \(1\)\n.*GEMINI\.md/);
  });

  it('/mcp disable NAME takes its tools away for this session, /mcp enable NAME brings them back', async () => {
    await ui.waitFor('MCP 1/1');
    ui.submit('/mcp disable memory');
    await ui.waitFor('disabled for this session');
    // The list and the footer say so too (the server itself still runs).
    await ui.waitFor(/MCP 0\/1 \(1 disabled\)/);
    ui.submit('/mcp');
    await ui.waitFor('memory disabled for this session (/mcp enable memory)');
    ui.submit('/tools');
    const off = await ui.waitFor(/No tools yet|Tools \(/);
    expect(off).not.toContain('memory__save_memory');
    ui.submit('/mcp enable memory');
    await ui.waitFor('enabled for this session: 2 tools back');
    await ui.waitFor('MCP 1/1');
    ui.submit('/tools');
    await ui.waitFor('memory__save_memory');
  });

  it('/theme lists dark and light; /theme light recolours the screen and is kept in ui.theme as Gemini CLI names it', async () => {
    ui.submit('/theme');
    await ui.waitFor(/Themes\n.*● dark\n.*light/);
    // The prompt marker is drawn in the accent colour: 111 on the dark theme, 25 on the light one.
    const styled = () => ui.tmux('capture-pane', '-e', '-p', '-t', ui.session);
    expect(styled()).toContain('38;5;111m');
    ui.submit('/theme light');
    await ui.waitFor('kept in the user settings');
    await waitFor(() => styled().includes('38;5;25m'), 'the light accent');
    expect(styled()).not.toContain('38;5;111m');
    const settings = JSON.parse(readFileSync(join(ws.home, '.gemini', 'settings.json'), 'utf8'));
    // Gemini CLI's name for it: the file is shared, and Gemini CLI refuses a theme it does not know.
    expect(settings.ui.theme).toBe('Default Light');
  });
});
