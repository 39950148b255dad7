import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectGeminiCliAccepts } from '../../helpers/gemini-cli.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

/**
 * `~/.gemini/settings.json` is Gemini CLI's file too: the chat honours the look-and-feel keys Gemini CLI
 * users already have there, and whatever the chat writes into it Gemini CLI 0.61 must still start on.
 */
/** An "editor" that appends `text` to the file it is given (its last argument), as a user would type. */
function fakeEditor(text: string, name = 'ed.sh'): string {
  const file = join(tempDir('editor-'), name);
  writeFileSync(file, `#!/bin/sh\nfor f; do :; done\nprintf ' ${text}' >> "$f"\n`);
  chmodSync(file, 0o755);
  return file;
}

describeTmux('the settings file shared with Gemini CLI', () => {
  const ws = workspace();
  const settingsFile = join(ws.home, '.gemini', 'settings.json');
  const saved = () => JSON.parse(readFileSync(settingsFile, 'utf8'));
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  // The prompt marker is drawn in the accent colour: 111 on the dark palette, 25 on the light one.
  const styled = () => ui.tmux('capture-pane', '-e', '-p', '-t', ui.session);
  const drawn = (palette: 'dark' | 'light') =>
    waitFor(() => styled().includes(palette === 'light' ? '38;5;25m' : '38;5;111m'), `the ${palette} palette`);

  beforeAll(async () => {
    ws.settings({
      ...ONLY(),
      ui: { theme: 'Xcode', hideTips: true },
      general: { vimMode: true },
    });
    gemini = await startScriptedGemini([reply.text('unused')]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: {
        GEMINI_CLI_HOME: ws.home,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
      },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 110,
      height: 30,
    });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('starts as the settings say: Xcode is a light theme, vi keys are on, no first-run tip', async () => {
    await ui.waitFor(INPUT_READY);
    await ui.waitFor('[INSERT]');
    await drawn('light');
    expect(styled()).not.toContain('38;5;111m');
    expect(ui.capture()).not.toContain('Tip: ask anything');
  });

  it('/vim turns vi keys off and keeps the choice in general.vimMode, as Gemini CLI does', async () => {
    ui.submit('/vim');
    await ui.waitFor('Vim mode off (kept in the user settings as general.vimMode)');
    expect(ui.capture()).not.toContain('[INSERT]');
    expect(saved().general.vimMode).toBe(false);
    ui.submit('/vim');
    await ui.waitFor('[INSERT]');
    expect(saved().general.vimMode).toBe(true);
  });

  it('/theme light is kept as Gemini CLI\'s "Default Light", a name Gemini CLI knows', async () => {
    ui.submit('/theme dark');
    await drawn('dark');
    ui.submit('/theme light');
    await ui.waitFor('Theme light (kept in the user settings as ui.theme "Default Light")');
    await drawn('light');
    expect(saved().ui.theme).toBe('Default Light');
  });

  it('/theme and /settings set take Gemini CLI names too, and refuse a name Gemini CLI would not know', async () => {
    ui.submit('/theme solarized dark');
    await ui.waitFor('Theme Solarized Dark drawn dark (kept in the user settings as ui.theme "Solarized Dark")');
    await drawn('dark');
    expect(saved().ui.theme).toBe('Solarized Dark');
    ui.submit('/theme mauve');
    await ui.waitFor('No theme "mauve"');
    ui.submit('/settings set ui.theme mauve');
    await ui.waitFor('No theme "mauve": /theme lists the names');
    expect(saved().ui.theme).toBe('Solarized Dark');
    ui.submit('/settings set ui.theme light');
    await ui.waitFor('ui.theme = "Default Light" written to the user settings');
    expect(saved().ui).toEqual({ theme: 'Default Light', hideTips: true });
  });

  it('/settings set refuses a value of these keys Gemini CLI would refuse, and writes nothing', async () => {
    const before = readFileSync(settingsFile, 'utf8');
    ui.submit('/settings set ui.hideTips yes');
    await ui.waitFor('ui.hideTips cannot be "yes"');
    ui.submit('/settings set general.preferredEditor notepad');
    await ui.waitFor('general.preferredEditor cannot be "notepad": Gemini CLI knows vscode');
    expect(readFileSync(settingsFile, 'utf8')).toBe(before);
    ui.submit('/settings set ui.showLineNumbers false');
    await ui.waitFor('ui.showLineNumbers = false written to the user settings');
    expect(saved().ui.showLineNumbers).toBe(false);
  });

  it('Gemini CLI 0.61 starts cleanly on the settings file the chat, `mcp add` and `mcp import` wrote', {
    timeout: 120_000,
  }, async () => {
    const add = (...args: string[]) => runHost(['mcp', 'add', '-s', 'user', ...args], { ws });
    for (const r of [
      await add('-e', 'K=v', '--timeout', '5000', '--trust', '--include-tools', 'a,b', 'local', 'true', '--flag'),
      await add(
        '-t',
        'http',
        '-H',
        'Authorization: Bearer x',
        '--description',
        'remote one',
        'remote',
        'http://127.0.0.1:9/mcp',
      ),
      await add('-t', 'sse', '--exclude-tools', 'c', 'events', 'http://127.0.0.1:9/sse'),
    ])
      expect(r.code, r.stderr).toBe(0);
    // Another client's servers, every transport spelling it has, brought in by `mcp import`.
    const claude = ws.file(
      'claude.json',
      JSON.stringify({
        mcpServers: {
          streamed: { type: 'streamable-http', url: 'http://127.0.0.1:9/mcp', headers: { A: 'b' } },
          pushed: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
          untyped: { url: 'http://127.0.0.1:9/x' },
          spawned: { type: 'stdio', command: 'true', args: ['-x'], env: { K: 'v' }, cwd: '/tmp', timeout: 5 },
        },
      }),
    );
    const imported = await runHost(['mcp', 'import', '--from', 'claude-code', '--file', claude, '-s', 'user'], { ws });
    expect(imported.code, imported.stderr).toBe(0);
    expect(Object.keys(saved().mcpServers)).toEqual([
      'local',
      'remote',
      'events',
      'streamed',
      'pushed',
      'untyped',
      'spawned',
    ]);
    expectGeminiCliAccepts(ws.home, ws.cwd, /Theme ".*" not found|Invalid configuration|Error in:|deprecated/);
  });
});

describeTmux('general.preferredEditor and a ui.theme an older version wrote', () => {
  const chats: { ui: TmuxUi; home: string }[] = [];
  /** A chat on `general`/`ui` settings, with a fake "vim" on PATH and $EDITOR naming another editor. */
  const chat = (settings: object) => {
    const ws = workspace();
    ws.settings({ ...ONLY(), ...settings });
    const vim = fakeEditor('from vim', 'vim');
    const ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: {
        GEMINI_CLI_HOME: ws.home,
        PATH: `${dirname(vim)}:${process.env.PATH}`,
        EDITOR: fakeEditor('from $EDITOR'),
      },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 160,
      height: 24,
    });
    chats.push({ ui, home: ws.home });
    return ui;
  };

  afterAll(() => {
    for (const c of chats) c.ui.kill();
  });

  it('Ctrl+G opens the editor the setting names, before $EDITOR, as in Gemini CLI', async () => {
    const ui = chat({ general: { preferredEditor: 'vim' } });
    await ui.waitFor(INPUT_READY);
    await ui.waitFor('no MCP server ready'); // the settings are in force
    ui.type('draft');
    ui.keys('C-g');
    await ui.waitFor('> draft from vim');
    expect(ui.capture()).not.toContain('from $EDITOR');
  });

  it('an editor Gemini CLI does not know is named at start, and $EDITOR is used', async () => {
    const ui = chat({ general: { preferredEditor: 'notepad++' } });
    await ui.waitFor('general.preferredEditor "notepad++" is not an editor Gemini CLI knows');
    ui.type('draft');
    ui.keys('C-g');
    await ui.waitFor('> draft from $EDITOR');
  });

  it('ui.theme "light" as earlier versions wrote it is drawn light, and /theme light is offered as the fix', async () => {
    const ui = chat({ ui: { theme: 'light' } });
    await ui.waitFor('ui.theme "light" is not a theme Gemini CLI knows');
    await ui.waitFor('/theme light keeps it as "Default Light"');
    const styled = () => ui.tmux('capture-pane', '-e', '-p', '-t', ui.session);
    await waitFor(() => styled().includes('38;5;25m'), 'the light palette');
    ui.submit('/theme light');
    await ui.waitFor('ui.theme "Default Light")');
    const home = chats.at(-1)!.home;
    expect(JSON.parse(readFileSync(join(home, '.gemini', 'settings.json'), 'utf8')).ui.theme).toBe('Default Light');
  });
});

describeTmux('ui.showLineNumbers: false', () => {
  const ws = workspace();
  const target = ws.file('notes.txt', 'alpha\nbeta\n');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings({ ...ONLY('filesystem'), ui: { showLineNumbers: false } });
    gemini = await startScriptedGemini([
      reply.calls({ name: 'filesystem__write_file', args: { file_path: target, content: 'alpha\ngamma\n' } }),
      reply.text('Rewritten.'),
    ]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 100,
      height: 30,
    });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('diffs in the approval dialog and on the card have no line-number gutter', async () => {
    await ui.waitFor(INPUT_READY);
    ui.submit('rewrite the notes');
    const dialog = await ui.waitFor('[y] allow once');
    // The dialog's diff sits in a box: its lines begin at the border.
    expect(dialog).toMatch(/│\+ gamma/);
    expect(dialog).toMatch(/│- beta/);
    expect(dialog).not.toMatch(/\d+ [+-] (gamma|beta)/);
    ui.type('y');
    const card = await ui.waitFor('Rewritten.');
    expect(readFileSync(target, 'utf8')).toBe('alpha\ngamma\n');
    expect(card).toMatch(/│ \+ gamma/);
    expect(card).not.toMatch(/\d+ [+-] (gamma|beta)/);
  });
});
