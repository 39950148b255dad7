import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { INPUT_READY, hasTmux, TmuxUi } from './tmux.js';

type Body = { contents: { role: string; parts: { text?: string }[] }[] };
const texts = (b: Body) => b.contents.flatMap((c) => c.parts.map((p) => p.text ?? '')).join('|');

describe.skipIf(!hasTmux)('daily driving the chat', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings({ ...ONLY('filesystem'), mcpServers: { broken: { command: join(ws.cwd, 'no-such-server') } } });
    // One headless run (same environment as the chat) caches the filesystem server's listing: the chat
    // then leaves it idle until used.
    const warm = await startScriptedGemini([reply.text('warm')]);
    const env = { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: warm.url };
    const scriptDir = tempDir('ui-scripts-');
    const headless = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir,
      env,
      argv: [process.execPath, requireBuilt(ENTRY.host), '-p', 'warm'],
    });
    await headless.waitFor('[exited 0]');
    headless.kill();
    await warm.close();
    const slow = Array.from({ length: 12 }, (_, i) => `part ${i} `);
    gemini = await startScriptedGemini([
      { ...reply.text(...slow, 'first answer done'), chunkDelayMs: 250 },
      reply.text('second answer'),
      reply.text('fresh answer'),
    ]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir,
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 110,
      height: 30,
    });
    await ui.waitFor(INPUT_READY);
  }, 60_000);

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('the footer shows a not-started server as idle and a broken one as failed', async () => {
    await ui.waitFor('MCP 0/2 (1 idle, 1 failed)');
  });

  it('Enter during a turn queues the message; Up takes it back to edit; it is sent when the turn ends', async () => {
    ui.submit('first question');
    await ui.waitFor('part 1');
    ui.submit('queued tpyo');
    await ui.waitFor('Queued: queued tpyo');
    ui.keys('Up');
    await ui.waitFor((s) => !s.includes('Queued:') && s.includes('> queued tpyo'));
    ui.keys('BSpace', 'BSpace', 'BSpace', 'BSpace');
    ui.submit('typo');
    await ui.waitFor('Queued: queued typo');
    await ui.waitFor('second answer');
    const reqs = gemini.requestsOf('streamGenerateContent');
    expect(reqs).toHaveLength(2);
    expect(texts(reqs[1]!.body as Body)).toContain('queued typo');
    expect(texts(reqs[1]!.body as Body)).not.toContain('tpyo');
  });

  it('/clear starts a fresh conversation: the model forgets, a new session is recorded, the screen is clean', async () => {
    await ui.waitFor(INPUT_READY);
    ui.submit('/clear');
    await ui.waitFor((s) => !s.includes('first question') && !s.includes('second answer'));
    ui.submit('after clear');
    await ui.waitFor('fresh answer');
    const last = gemini.requestsOf('streamGenerateContent')[2]!.body as Body;
    expect(last.contents).toHaveLength(1);
    expect(texts(last)).toContain('after clear');
    const screen = ui.capture();
    expect(screen).not.toContain('first question');
    expect(screen).not.toContain('part 3');
    // The cleared conversation stays in its own session; the fresh one has only what came after.
    const chats = readdirSync(join(ws.home, '.gemini', 'tmp'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /session-.*\.jsonl$/.test(f))
      .map((f) => readFileSync(join(ws.home, '.gemini', 'tmp', f), 'utf8'));
    const fresh = chats.filter((c) => c.includes('after clear'));
    expect(fresh).toHaveLength(1);
    expect(fresh[0]).not.toContain('first question');
    expect(chats.some((c) => c.includes('first question') && c.includes('queued typo'))).toBe(true);
  });

  it('F12 toggles the debug log view rather than appending another', async () => {
    ui.keys('F12');
    await ui.waitFor('Debug log');
    ui.keys('F12');
    await ui.waitFor((s) => !s.includes('Debug log'));
    ui.keys('F12');
    const screen = await ui.waitFor('Debug log');
    expect(screen.split('Debug log (').length - 1).toBeLessThanOrEqual(1);
  });

  it('after "allow all edits" the footer shows auto-edit and Shift+Tab goes on from there', async () => {
    const file = join(ws.cwd, 'notes.txt');
    gemini.push(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: file, content: 'hello\n' } }),
      reply.text('written'),
    );
    ui.submit('write the notes');
    await ui.waitFor('allow all edits');
    // The user takes a while to answer: that time is not the tool's (checked with /stats below).
    await new Promise((r) => setTimeout(r, 2000));
    ui.keys('a');
    await ui.waitFor('written');
    await ui.waitFor(/· auto-edit ·/);
    ui.keys('BTab');
    await ui.waitFor(/· YOLO ·/);
    ui.submit('/stats tools');
    const stats = await ui.waitFor(/filesystem__write_file +1 +1 +0 +100\.0% +\d+/);
    const avg = Number(/filesystem__write_file +1 +1 +0 +100\.0% +(\d+)/.exec(stats)![1]);
    expect(avg).toBeLessThan(1500);
    expect(stats).not.toContain('Session stats');
  });

  it('/model with an unknown name warns, lists the known models and keeps the model', async () => {
    await ui.waitFor(INPUT_READY);
    ui.submit('/model gemini-2.5-flsh');
    const screen = await ui.waitFor('is not a known model');
    expect(screen).toContain('did you mean gemini-2.5-flash?');
    expect(screen).toMatch(/Known models: .*gemini-2\.5-pro/);
    expect(screen).toMatch(/gemini-3-pro-preview · /);
  });

  it('/settings set writes one setting to the user settings file, keeping its comments; bad input writes nothing', async () => {
    const file = join(ws.home, '.gemini', 'settings.json');
    writeFileSync(file, `// kept comment\n${readFileSync(file, 'utf8')}`);
    ui.submit('/settings set model.maxSessionTurns lots');
    await ui.waitFor('cannot be "lots"');
    ui.submit('/settings set modle.name x');
    await ui.waitFor(/unknown setting "modle" \(did you mean "model"\?\)/);
    expect(readFileSync(file, 'utf8')).not.toContain('lots');
    ui.submit('/settings set model.name gemini-2.5-pro');
    await ui.waitFor('written to the user settings');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// kept comment');
    expect(text).toMatch(/"model": \{\s*"name": "gemini-2.5-pro"/);
  });
});
