import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

/** `!git diff` typed in the chat, on the system's git, in a repository whose diff.external must not run. */
describeTmux('!git diff in the chat', () => {
  const ws = workspace();
  const marker = join(ws.home, 'external-ran');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings({ ...ONLY('shell'), security: { folderTrust: { enabled: false } } });
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: ws.cwd, env: { ...process.env, HOME: ws.home } });
    git('init', '-q');
    ws.file('notes.txt', 'alpha\n');
    git('add', 'notes.txt');
    git('-c', 'user.name=T', '-c', 'user.email=t@example.invalid', 'commit', '-qm', 'first');
    ws.file('notes.txt', 'alpha\nbeta-added-line\n');
    git('config', 'diff.external', `touch ${marker}; echo HOSTILE`);
    gemini = await startScriptedGemini([]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 100,
      height: 40,
    });
    await ui.waitFor(INPUT_READY);
    await ui.waitFor('MCP 1/1');
  }, 60_000);

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('shows the real diff; the repository program does not run', async () => {
    ui.submit('!git diff');
    const screen = await ui.waitFor(/│ \+beta-added-line/);
    expect(screen).toMatch(/│ diff --git a\/notes\.txt b\/notes\.txt/);
    expect(screen).toMatch(/│ {2}alpha/);
    expect(screen).not.toMatch(/external diff died|HOSTILE/);
    expect(existsSync(marker)).toBe(false);
    expect(gemini.requests).toHaveLength(0);
  });
});
