import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chunk, reply, startScriptedGemini, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ENTRY, REPO, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

const STATUS_ROW = /gemini-3-pro-preview · (default|auto-edit|YOLO) · MCP/;
const lastLine = (screen: string) => screen.trimEnd().split('\n').at(-1) ?? '';

/**
 * A user's session: keys, paste, thoughts, live shell output, a third-party server's pre-call ask,
 * slash commands, history across restarts and leaving with Ctrl-C twice.
 */
describeTmux('terminal UI: a user session in tmux', () => {
  const ws = tempDir('ui-sess-ws-');
  const home = tempDir('ui-sess-home-');
  const scripts = tempDir('ui-sess-scripts-');
  const graph = join(ws, 'graph.jsonl');
  const stopFile = join(ws, 'stop-now');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  const start = () =>
    TmuxUi.start({
      cwd: ws,
      scriptDir: scripts,
      width: 110,
      height: 35,
      env: { GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, ENTRY.host],
    });

  beforeAll(async () => {
    requireBuilt(ENTRY.host);
    mkdirSync(join(ws, '.gemini'), { recursive: true });
    // The folder is trusted beforehand: its workspace server should start without the trust prompt.
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws]: 'TRUST_FOLDER' }));
    mkdirSync(join(ws, 'src'));
    writeFileSync(join(ws, 'src', 'alpha.txt'), 'a\n');
    writeFileSync(join(ws, 'src', 'beta.md'), 'b\n');
    const memoryServer = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');
    writeFileSync(
      join(ws, '.gemini', 'settings.json'),
      JSON.stringify({
        mcpServers: { kg: { command: process.execPath, args: [memoryServer], env: { MEMORY_FILE_PATH: graph } } },
      }),
    );
    const entity = (name: string) => ({ entities: [{ name, entityType: 'person', observations: ['likes tea'] }] });
    gemini = await startScriptedGemini([
      {
        method: 'generateContentStream',
        response: [
          chunk([{ text: '**Weighing options** The user wants a secret plan kept hidden.', thought: true }]),
          chunk([{ text: 'Thoughts done.' }], true),
        ],
      },
      reply.calls({
        id: 's1',
        name: 'shell__run_shell_command',
        args: { command: `echo first-out; while [ ! -e ${stopFile} ]; do sleep 0.1; done; echo last-out` },
      }),
      reply.text('Shell finished.'),
      reply.calls({ id: 'k1', name: 'kg__create_entities', args: entity('Alice') }),
      reply.text('Stored Alice.'),
      reply.calls({ id: 'k2', name: 'kg__create_entities', args: entity('Bob') }),
      reply.text('Got your paste.'),
    ]);
    ui = start();
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('Shift+Tab cycles the approval mode shown in the status line', async () => {
    expect(lastLine(await ui.waitFor(STATUS_ROW))).toContain('· default ·');
    for (const mode of ['auto-edit', 'YOLO', 'plan', 'default']) {
      ui.keys('BTab');
      await ui.waitFor((s) => lastLine(s).includes(`· ${mode} ·`), 15_000);
    }
  });

  it('shows thoughts dimmed and collapsed; Ctrl-T expands them', async () => {
    ui.submit('think first');
    const collapsed = await ui.waitFor('Thoughts done.');
    expect(collapsed).toContain('∴ Weighing options (ctrl-t to expand)');
    expect(collapsed).not.toContain('secret plan');
    // Dimmed: drawn in the palette's faint gray (blessed cannot draw SGR 2 itself).
    expect(ui.tmux('capture-pane', '-p', '-e', '-t', ui.session)).toMatch(
      /38;5;242m(\x1b\[[0-9;]*m)*∴ Weighing options/,
    );
    ui.keys('C-t');
    await ui.waitFor('The user wants a secret plan kept hidden.');
    ui.keys('C-t');
    await ui.waitFor((s) => !s.includes('secret plan'));
  });

  it('streams shell output into the tool card while the command runs', async () => {
    ui.submit('run the watcher');
    const asking = await ui.waitFor('[y] allow once');
    expect(asking).toMatch(/\? shell__run_shell_command[^\n]*\n\s+awaiting approval/);
    ui.type('y');
    const live = await ui.waitFor(/⊷ shell__run_shell_command[\s\S]*executing \d[\s\S]*│ first-out/);
    expect(live).not.toContain('last-out');
    writeFileSync(stopFile, '');
    const done = await ui.waitFor('Shell finished.');
    expect(done).toMatch(/✓ shell__run_shell_command[\s\S]*│ first-out\n\s+│ last-out/);
  });

  it("asks before a third-party server's tool runs: allow once runs it, cancel does not", async () => {
    await ui.waitFor(/MCP 5\/5/, 60_000);
    ui.submit('remember alice');
    const ask = await ui.waitFor('[y] allow once');
    expect(ask).toContain('Allow create_entities from server kg?');
    expect(ask).toContain('"name": "Alice"');
    expect(ask).toContain('[t] always allow tool kg__create_entities');
    expect(existsSync(graph)).toBe(false);
    ui.type('y');
    await ui.waitFor('Stored Alice.');
    expect(readFileSync(graph, 'utf8')).toContain('"Alice"');

    ui.submit('remember bob');
    await ui.waitFor('"name": "Bob"');
    ui.type('n');
    // A declined call ends the turn (nothing goes back to the model).
    await ui.waitFor(/- kg__create_entities[^\n]*Bob[\s\S]*cancelled/);
    expect(readFileSync(graph, 'utf8')).not.toContain('Bob');
  });

  it('/stats and /tools report the session', async () => {
    ui.keys('C-l');
    ui.submit('/stats');
    const stats = await ui.waitFor('Session stats');
    expect(stats).toMatch(/model requests\s+6/);
    expect(stats).toMatch(/tool calls\s+3 \(2 ok, 1 failed or cancelled; success rate 66\.7%\)/);
    expect(stats).toMatch(/kg__create_entities\s+2\s+1\s+1\s+50\.0%/);
    ui.keys('C-l');
    ui.submit('/tools');
    // The list outgrew the screen: its heading has scrolled up, its last entries (the host's) show.
    const tools = await ui.waitFor(/kg__read_graph[\s\S]*read_mcp_resource/);
    for (const name of [
      'shell__kill_background_process',
      'memory__save_memory',
      'kg__create_entities',
      'kg__read_graph',
    ])
      expect(tools).toContain(name);
  });

  it('/memory add saves a fact (after its confirmation) and /memory show lists it', async () => {
    ui.submit('/memory add I prefer tabs');
    await ui.waitFor('[y] allow once');
    ui.type('y');
    await ui.waitFor(/✓ memory__save_memory/);
    ui.submit('/memory show');
    const shown = await ui.waitFor('Memory context');
    expect(shown).toContain('- I prefer tabs');
    expect(readFileSync(join(home, '.gemini', 'GEMINI.md'), 'utf8')).toContain('I prefer tabs');
  });

  it('Tab completes @path references', async () => {
    ui.type('read @sr');
    ui.keys('Tab');
    await ui.waitFor((s) => s.includes('> read @src/') && !s.includes('> read @src/a'), 15_000);
    ui.type('al');
    ui.keys('Tab');
    await ui.waitFor('> read @src/alpha.txt', 15_000);
    ui.keys('C-u');
    await ui.waitFor(INPUT_READY, 15_000);
  });

  it('a multi-line paste stays in the input box until Enter', async () => {
    const before = gemini.requestsOf('streamGenerateContent').length;
    const buf = join(scripts, 'paste.txt');
    writeFileSync(buf, 'first pasted line\nsecond pasted line\nthird pasted line');
    ui.tmux('load-buffer', '-b', 'p', buf);
    ui.tmux('paste-buffer', '-p', '-d', '-b', 'p', '-t', ui.session);
    const pasted = await ui.waitFor('  third pasted line', 15_000);
    expect(pasted).toContain('> first pasted line\n  second pasted line\n  third pasted line');
    expect(gemini.requestsOf('streamGenerateContent').length).toBe(before);
    ui.keys('Enter');
    await ui.waitFor('Got your paste.');
    const sent = JSON.stringify(gemini.requestsOf('streamGenerateContent').at(-1)!.body);
    expect(sent).toContain('first pasted line\\nsecond pasted line\\nthird pasted line');
  });

  it('Ctrl-C twice on an idle prompt exits and restores the terminal; history survives the restart', async () => {
    expect(ui.tmux('display', '-p', '-t', ui.session, '#{alternate_on}').trim()).toBe('1');
    ui.keys('C-c');
    await ui.waitFor('Press Ctrl-C again to exit.', 15_000);
    ui.keys('C-c');
    const after = await ui.waitFor('[exited 0]');
    expect(after).not.toMatch(STATUS_ROW);
    // Back on the normal screen with a visible cursor.
    expect(ui.tmux('display', '-p', '-t', ui.session, '#{alternate_on} #{cursor_flag}').trim()).toBe('0 1');
    ui.kill();

    ui = start();
    await ui.waitFor(INPUT_READY);
    ui.keys('Up');
    await ui.waitFor('> first pasted line', 15_000);
    ui.keys('Up');
    // Up inside a multi-line entry first moves the cursor to its first row, then walks history.
    ui.keys('Up', 'Up');
    await ui.waitFor('> /memory show', 15_000);
  });
});
