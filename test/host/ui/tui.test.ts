import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { reply, startScriptedGemini, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { isAlive, waitFor } from '../../helpers/wait.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

/** Live `sleep 300` processes started by the shell command carrying `marker`. */
function sleepsUnder(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      if (!cmd.startsWith('sleep 300')) continue;
      const ppid = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      const parent = readFileSync(`/proc/${ppid}/cmdline`, 'utf8');
      if (parent.includes(marker)) pids.push(Number(name));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

describeTmux('terminal UI in tmux', () => {
  const ws = tempDir('ui-ws-');
  const home = tempDir('ui-home-');
  const scripts = tempDir('ui-scripts-');
  const target = join(ws, 'notes.txt');
  const marker = `ui-marker-${process.pid}`;
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    requireBuilt(ENTRY.host);
    writeFileSync(target, 'old line\n');
    gemini = await startScriptedGemini([
      reply.text(
        '# Plan\n\nHere is **bold** text and ',
        'a list:\n\n- first item\n- second item\n\n```js\nconst answer = 42;\n```\n\nA long closing sentence that keeps going so that it must wrap once the window gets narrow enough.',
      ),
      reply.calls({
        id: 'w1',
        name: 'filesystem__write_file',
        args: { file_path: target, content: 'approved line\n' },
      }),
      reply.text('Edit applied.'),
      reply.calls({
        id: 'w2',
        name: 'filesystem__write_file',
        args: { file_path: target, content: 'declined line\n' },
      }),
      reply.calls({
        id: 'w3',
        name: 'filesystem__write_file',
        args: { file_path: target, content: 'proposed line\n' },
      }),
      reply.text('Modified version written.'),
      reply.calls({ id: 's1', name: 'shell__run_shell_command', args: { command: `sleep 300; echo ${marker}` } }),
    ]);
    ui = TmuxUi.start({
      cwd: ws,
      scriptDir: scripts,
      env: {
        GEMINI_CLI_HOME: home,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        EDITOR: 'sed -i s/proposed/edited/',
      },
      argv: [process.execPath, ENTRY.host],
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('streams a markdown answer', async () => {
    ui.submit('hello model');
    const screen = await ui.waitFor('second item');
    expect(screen).toContain('> hello model');
    expect(screen).toMatch(/Plan/);
    expect(screen).toContain('Here is bold text');
    expect(screen).toMatch(/\* first item/);
    expect(screen).toContain('const answer = 42;');
    expect(screen).not.toContain('**');
    expect(screen).not.toContain('```');
  });

  it('/mcp lists the servers and their status', async () => {
    await ui.waitFor(/MCP 4\/4/, 60_000);
    ui.submit('/mcp');
    const screen = await ui.waitFor(/^MCP servers\n[\s\S]*● memory/m);
    for (const alias of ['filesystem', 'shell', 'web', 'memory'])
      expect(screen).toMatch(new RegExp(`● ${alias} \\(built-in\\) connected`));
    expect(screen).toContain('run_shell_command');
  });

  it('runs a passive @tool call and shows its result', async () => {
    ui.keys('C-l');
    ui.submit(`@filesystem__list_directory({"path": "${ws}"})`);
    const screen = await ui.waitFor(/✓ filesystem__list_directory \(passive\)[\s\S]*notes\.txt/);
    expect(screen).toContain('done');
  });

  it('shows an edit confirmation with the diff; approving writes the file', async () => {
    ui.submit('please edit');
    const screen = await ui.waitFor('[y] allow once');
    expect(screen).toContain('- old line');
    expect(screen).toContain('+ approved line');
    expect(screen).toContain('modify in $EDITOR');
    ui.type('y');
    await ui.waitFor('Edit applied.');
    expect(readFileSync(target, 'utf8')).toBe('approved line\n');
  });

  it('declining an edit leaves the file unchanged', async () => {
    ui.submit('edit again');
    const screen = await ui.waitFor('+ declined line');
    expect(screen).toContain('[n] cancel');
    ui.keys('Escape');
    await ui.waitFor(/- filesystem__write_file[\s\S]*cancelled/);
    expect(readFileSync(target, 'utf8')).toBe('approved line\n');
  });

  it('modify opens $EDITOR on the proposal and writes the edited text', async () => {
    ui.submit('edit with my changes');
    await ui.waitFor('+ proposed line');
    ui.type('e');
    // The edited proposal is confirmed again, now showing the user's text.
    await ui.waitFor('+ edited line');
    ui.type('y');
    await ui.waitFor('Modified version written.');
    expect(readFileSync(target, 'utf8')).toBe('edited line\n');
  });

  it('Esc cancels a long shell command and leaves no orphan process', async () => {
    ui.submit('run something long');
    await ui.waitFor('[y] allow once');
    ui.type('y');
    await ui.waitFor(/executing \d/);
    let pids: number[] = [];
    await waitFor(() => (pids = sleepsUnder(marker)).length > 0, 'the sleep process', 20_000);
    expect(pids.length).toBe(1);
    expect(await ui.waitFor('esc to cancel')).toContain('Running shell__run_shell_command');
    ui.keys('Escape');
    await ui.waitFor(/- shell__run_shell_command[\s\S]*cancelled/);
    await waitFor(() => !pids.some(isAlive), 'the sleep process to end', 20_000);
    expect(pids.filter(isAlive)).toEqual([]);
    expect(sleepsUnder(marker)).toEqual([]);
  });

  it('reflows on resize', async () => {
    ui.keys('PageUp', 'PageUp', 'PageUp', 'PageUp');
    const wide = await ui.waitFor('A long closing sentence');
    expect(wide).toContain('A long closing sentence that keeps going so that it must wrap');
    ui.resize(50, 30);
    // tmux itself cuts lines at the new width at once; the UI's reflow moves the cut words to the next line.
    const narrow = await ui.waitFor((s) => /MCP 4\/4/.test(s) && /\n\s+[a-z ]*must wrap/.test(s));
    expect(narrow.split('\n').every((l) => l.length <= 50)).toBe(true);
  });
});

describeTmux('terminal UI without credentials', () => {
  const ws = tempDir('ui-ws2-');
  const home = tempDir('ui-home2-');
  const scripts = tempDir('ui-scripts2-');
  let ui: TmuxUi;
  afterAll(() => ui?.kill());

  it('opens with a banner saying what to set; slash commands work; /quit exits', async () => {
    ui = TmuxUi.start({
      cwd: ws,
      scriptDir: scripts,
      env: { GEMINI_CLI_HOME: home },
      argv: [process.execPath, ENTRY.host],
      width: 110,
    });
    const screen = await ui.waitFor('GEMINI_API_KEY');
    expect(screen).toContain('No Gemini credentials');
    await ui.waitFor(INPUT_READY);
    ui.submit('/help');
    // The help's last lines (the table outgrew the screen's height; its start has scrolled up).
    await ui.waitFor('/quit — exit');
    ui.submit('/quit');
    await ui.waitFor('[exited 0]');
  });
});
