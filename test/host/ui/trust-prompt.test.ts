import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

const FAULT = join(import.meta.dirname, '../../fixtures/fault-server.mjs');
const QUESTION = 'Do you trust the files in this folder?';

/** The first chat in a folder with workspace settings asks before any of them runs. */
describeTmux('terminal UI: the folder trust prompt', () => {
  const root = tempDir('ui-trust-');
  const scripts = tempDir('ui-trust-scripts-');
  let ui: TmuxUi | undefined;
  afterEach(() => ui?.kill());

  function project(name: string) {
    const home = join(root, `${name}-home`);
    const dir = join(root, name);
    const marker = join(root, `${name}.started`);
    mkdirSync(join(dir, '.gemini'), { recursive: true });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({ mcp: { excluded: ['filesystem', 'shell', 'web', 'memory'] } }),
    );
    const server = { command: 'sh', args: ['-c', `touch '${marker}'; exec '${process.execPath}' '${FAULT}'`] };
    writeFileSync(join(dir, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { repo_tools: server } }));
    ui = TmuxUi.start({
      cwd: dir,
      scriptDir: scripts,
      width: 120,
      height: 30,
      env: { GEMINI_CLI_HOME: home },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
    });
    const trustFile = join(home, '.gemini', 'trustedFolders.json');
    return { dir, marker, trustFile };
  }

  it('"trust this folder" saves the answer, then the workspace server starts', async () => {
    const p = project('trusting');
    const screen = await ui!.waitFor(QUESTION);
    expect(screen).toContain('mcpServers (repo_tools)');
    expect(screen).toContain('[1] trust this folder');
    // Nothing from the folder has run while the question is open. Enter typed ahead does not answer: the
    // keys reach the chat in order, so had Enter answered, the '1' after it would not be the answer saved.
    expect(existsSync(p.marker)).toBe(false);
    ui!.keys('Enter');
    ui!.type('1');
    await ui!.waitFor('Saved: trusted');
    expect(JSON.parse(readFileSync(p.trustFile, 'utf8'))).toEqual({ [p.dir]: 'TRUST_FOLDER' });
    await ui!.waitFor(() => existsSync(p.marker), 30_000);
  });

  it('"don\'t trust" saves it, says what was skipped, keeps the mode at default and starts nothing', async () => {
    const p = project('distrusting');
    await ui!.waitFor(QUESTION);
    ui!.type('3');
    const screen = await ui!.waitFor('This folder is not trusted');
    expect(screen).toContain('mcpServers (repo_tools)');
    expect(JSON.parse(readFileSync(p.trustFile, 'utf8'))).toEqual({ [p.dir]: 'DO_NOT_TRUST' });
    await ui!.waitFor(INPUT_READY);
    ui!.keys('BTab');
    await ui!.waitFor('approval mode stays default or plan');
    expect(existsSync(p.marker)).toBe(false);
  });
});
