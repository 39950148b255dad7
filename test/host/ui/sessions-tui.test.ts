import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { reply, startScriptedGemini, type ScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

const LONG_ANSWER = `General Kenobi. ${Array.from({ length: 150 }, (_, i) => `fact${i}`).join(' ')} END-OF-ANSWER`;

/** The chat's session features: /chat, shell mode, /copy, /compress, the exit summary and resuming. */
describeTmux('terminal UI: sessions, shell mode and the daily commands', () => {
  const ws = tempDir('ui-sessions-ws-');
  const home = tempDir('ui-sessions-home-');
  const scripts = tempDir('ui-sessions-scripts-');
  const outside = tempDir('ui-sessions-outside-');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  const start = (...argv: string[]) =>
    TmuxUi.start({
      cwd: ws,
      scriptDir: scripts,
      width: 120,
      height: 40,
      env: { GEMINI_CLI_HOME: home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, ENTRY.host, ...argv],
    });

  beforeAll(async () => {
    requireBuilt(ENTRY.host);
    mkdirSync(join(ws, '.gemini'), { recursive: true });
    // A block comment, as settings files may carry: /settings still says which file set each key.
    writeFileSync(
      join(ws, '.gemini', 'settings.json'),
      `/* project settings */\n${JSON.stringify({ mcp: { excluded: ['web', 'memory'] } })}`,
    );
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [ws]: 'TRUST_FOLDER' }));
    gemini = await startScriptedGemini([
      reply.text(LONG_ANSWER),
      {
        method: 'generateContent',
        response: {
          candidates: [
            {
              content: { role: 'model', parts: [{ text: '<state_snapshot>said hello</state_snapshot>' }] },
              finishReason: 'STOP',
              index: 0,
            },
          ],
        },
      },
      reply.text('After the resume.'),
      reply.calls({
        id: 'w1',
        name: 'filesystem__write_file',
        args: { file_path: join(ws, 'notes.txt'), content: 'changed\n' },
      }),
      reply.text('Edited.'),
      reply.calls({
        id: 'i1',
        name: 'filesystem__write_file',
        args: { file_path: join(ws, 'GEMINI.md'), content: '# Project\nBuilt with care.\n' },
      }),
      reply.text('Wrote GEMINI.md.'),
    ]);
    ui = start();
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('/chat save, list and share; /copy; /stats per model', async () => {
    ui.submit('hello there');
    await ui.waitFor('END-OF-ANSWER');
    ui.submit('/chat save first-tag');
    await ui.waitFor('Conversation saved as first-tag');
    ui.submit('/chat list');
    await ui.waitFor(/Saved chats\n\s+first-tag/);
    // Gemini CLI 0.61's spelling of the same: the tag operations under /resume.
    ui.keys('C-l');
    ui.submit('/resume save second-tag');
    await ui.waitFor('Conversation saved as second-tag');
    ui.submit('/resume list');
    await ui.waitFor(/Saved chats\n\s+first-tag.*\n\s+second-tag/);
    ui.submit('/chat share out.md');
    await ui.waitFor('Conversation written to');
    const md = readFileSync(join(ws, 'out.md'), 'utf8');
    expect(md).toContain('hello there');
    expect(md).toContain('END-OF-ANSWER');
    ui.submit('/copy');
    await ui.waitFor(/Copied the last answer \(\d+ characters\)/);
    ui.keys('C-l');
    ui.submit('/stats');
    const stats = await ui.waitFor(/gemini-3-pro-preview\s+1\s+0\s+100\.0%/);
    expect(stats).toContain('model requests  1');
  });

  it('!cmd runs through the shell server without a dialog (the user typed it); ! toggles shell mode', async () => {
    ui.submit("!printf 'bang-%s\\n' 42");
    await ui.waitFor(/✓ shell__run_shell_command[\s\S]*bang-42/);
    ui.submit('!');
    await ui.waitFor(/^!\s+Type your message/m);
    ui.submit("printf 'in-shell-mode-%s\\n' 2");
    await ui.waitFor(/│ in-shell-mode-2/);
    expect(ui.capture()).not.toContain('allow once');
    ui.submit('!');
    await ui.waitFor(/^>\s+Type your message/m);
    // Nothing of this went to the model.
    expect(gemini.requestsOf('streamGenerateContent')).toHaveLength(1);
  });

  it('/compress shows tokens before → after; /model, /about, /settings, /directory', async () => {
    ui.keys('C-l');
    ui.submit('/compress');
    await ui.waitFor(/Chat history compressed: \d+ → \d+ tokens\./);
    ui.submit('/model gemini-2.5-pro');
    await ui.waitFor(/gemini-2\.5-pro · default/);
    ui.submit('/about');
    await ui.waitFor(/session\s+[0-9a-f-]{36}/);
    ui.keys('C-l');
    ui.submit('/settings');
    await ui.waitFor(/mcp\.excluded = \["web","memory"\] \(workspace\)/);
    writeFileSync(join(outside, 'outside-file.txt'), 'x\n');
    ui.keys('C-l');
    ui.submit(`@filesystem__list_directory({"path": "${outside}"})`);
    await ui.waitFor(/✗ filesystem__list_directory/);
    ui.keys('C-l');
    ui.submit(`/directory add ${outside}`);
    await ui.waitFor('Added to the workspace:');
    ui.submit('/directory show');
    await ui.waitFor(/Workspace directories\n.*\n.*ui-sessions-outside-/);
    // The servers were told: the directory is now inside the workspace.
    ui.submit(`@filesystem__list_directory({"path": "${outside}"})`);
    await ui.waitFor(/✓ filesystem__list_directory[\s\S]*outside-file\.txt/);
  });

  it('on exit prints a summary and the resume command; -r brings the conversation back', async () => {
    ui.submit('/quit');
    const out = await ui.waitFor('[exited 0]');
    const id = /Resume it with: gemini-mcp --resume ([0-9a-f-]{36})/.exec(out)?.[1];
    expect(id, out).toBeDefined();
    expect(out).toContain('Session: hello there');
    ui.kill();
    ui = start('-r', id!, '--checkpointing');
    const resumed = await ui.waitFor('Resumed session 1');
    // The screen shows the conversation as it was shown; the model gets the compressed history (below).
    expect(resumed).toContain('General Kenobi');
    expect(resumed).not.toContain('said hello');
    ui.submit('and now?');
    await ui.waitFor('After the resume.');
    const sent = JSON.stringify(gemini.requestsOf('streamGenerateContent')[1]!.body.contents);
    expect(sent).toContain('<state_snapshot>said hello</state_snapshot>');
    ui.keys('C-l');
    ui.submit('/resume');
    await ui.waitFor(/Resume a session \(1\)[\s\S]*❯\s+1\. hello there .*\(this session\)/);
    ui.type('/zzz');
    await ui.waitFor('No session matches.');
    ui.keys('Escape');
    await ui.waitFor(/❯\s+1\. hello there/);
    ui.keys('Escape');
    await ui.waitFor('Resume closed.');
    ui.submit('/resume');
    await ui.waitFor('Resume a session (1)');
    ui.keys('Enter');
    await ui.waitFor(
      (s) => !s.includes('Resume a session') && /Resumed session 1: hello there \[[0-9a-f-]{36}\]\s*\n\s*─/.test(s),
    );
    ui.submit('/chat resume first-tag');
    await ui.waitFor('Resumed saved chat first-tag');
    expect(existsSync(join(ws, 'GEMINI.md'))).toBe(false);
  });

  it('--checkpointing: an approved edit is checkpointed; /restore lists it and puts the file back', async () => {
    writeFileSync(join(ws, 'notes.txt'), 'original\n');
    ui.keys('C-l');
    ui.submit('edit the notes');
    await ui.waitFor('[y] allow once');
    ui.type('y');
    await ui.waitFor('Edited.');
    expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('changed\n');
    ui.submit('/restore');
    await ui.waitFor(/Checkpoints \(1\)\n\s+1\. .*filesystem__write_file/);
    ui.submit('/restore 1');
    await ui.waitFor('Restored checkpoint');
    expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('original\n');
  });

  it('/init asks the model to write GEMINI.md, and refuses when one exists', async () => {
    ui.keys('C-l');
    ui.submit('/init');
    await ui.waitFor('[y] allow once');
    ui.type('y');
    await ui.waitFor('Wrote GEMINI.md.');
    expect(readFileSync(join(ws, 'GEMINI.md'), 'utf8')).toContain('Built with care.');
    expect(JSON.stringify(gemini.requestsOf('streamGenerateContent').at(-2)!.body.contents)).toContain(
      'Create a GEMINI.md file',
    );
    ui.submit('/init');
    await ui.waitFor('GEMINI.md already exists');
  });
});
