import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';
import { describeTmux, INPUT_READY, TmuxUi } from './tmux.js';

/** A 1×1 PNG: a real image, copied to a real X clipboard. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/**
 * Ctrl+V with an image on the clipboard of a real X server (Xvfb), served by xclip, as a desktop would.
 * CI installs both; without them this suite fails there rather than pass without pasting.
 */
describeTmux('pasting an image from the clipboard', () => {
  const ws = workspace();
  const display = `:${100 + (process.pid % 800)}`;
  let xvfb: ChildProcess | undefined;
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    if (!has('Xvfb') || !has('xclip')) throw new Error('Xvfb and xclip are needed (apt-get install xvfb xclip)');
    xvfb = spawn('Xvfb', [display, '-nolisten', 'tcp'], { stdio: 'ignore' });
    await waitFor(() => existsSync(`/tmp/.X11-unix/X${display.slice(1)}`));
    const png = join(ws.home, 'shot.png');
    writeFileSync(png, PNG);
    // xclip stays in the background serving the selection, as the copying program would.
    spawnSync('xclip', ['-selection', 'clipboard', '-t', 'image/png', '-i', png], {
      env: { ...process.env, DISPLAY: display },
      stdio: 'ignore',
    });
    ws.settings(ONLY('filesystem'));
    gemini = await startScriptedGemini([reply.text('A single pixel.')]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: {
        GEMINI_CLI_HOME: ws.home,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        DISPLAY: display,
      },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 160,
      height: 30,
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
    spawnSync('pkill', ['-f', `xclip -selection clipboard -t image/png -i ${join(ws.home, 'shot.png')}`]);
    xvfb?.kill();
  });

  it('Ctrl+V saves the image under the project temp folder and inserts its @path; the model gets the bytes', async () => {
    ui.type('what is this? ');
    ui.keys('C-v');
    const screen = await ui.waitFor(/@\S*\/images\/clipboard-\d+\.png/);
    const path = /@(\S*\/images\/clipboard-\d+\.png)/.exec(screen)![1]!;
    expect(readFileSync(path)).toEqual(PNG);
    expect(readdirSync(join(path, '..'))).toHaveLength(1);
    ui.keys('Enter');
    await ui.waitFor('A single pixel.');
    const body = gemini.requestsOf('streamGenerateContent')[0]!.body as {
      contents: { parts: { inlineData?: { mimeType: string; data: string } }[] }[];
    };
    const inline = body.contents.at(-1)!.parts.find((p) => p.inlineData)?.inlineData;
    expect(inline).toEqual({ mimeType: 'image/png', data: PNG.toString('base64') });
  });
});
