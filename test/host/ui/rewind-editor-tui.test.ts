import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { INPUT_READY, hasTmux, TmuxUi } from './tmux.js';

type Body = { contents: { role: string; parts: { text?: string }[] }[] };
const texts = (b: Body) => b.contents.flatMap((c) => c.parts.map((p) => p.text ?? '')).join('|');

describe.skipIf(!hasTmux)('/rewind and the external editor', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY());
    // An "editor" that appends to the file it is given, as a user would type.
    const editor = join(tempDir('editor-'), 'ed.sh');
    writeFileSync(editor, '#!/bin/sh\nprintf \' and more from the editor\' >> "$1"\n');
    chmodSync(editor, 0o755);
    gemini = await startScriptedGemini([
      reply.text('answer one'),
      reply.text('answer two'),
      reply.text('answer three'),
      reply.text('answer four'),
      reply.text('answer five'),
    ]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: {
        GEMINI_CLI_HOME: ws.home,
        GEMINI_API_KEY: 'test-key',
        GOOGLE_GEMINI_BASE_URL: gemini.url,
        EDITOR: editor,
      },
      argv: [process.execPath, requireBuilt(ENTRY.host)],
      width: 100,
      height: 30,
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('Esc Esc lists earlier messages oldest on top to pick with the arrows; the rewind says file changes are kept, goes back and puts the message in the input', async () => {
    ui.submit('first message');
    await ui.waitFor('answer one');
    ui.submit('second message');
    await ui.waitFor('answer two');
    await ui.waitFor(INPUT_READY);
    ui.keys('Escape');
    ui.keys('Escape');
    const list = await ui.waitFor('Rewind to before which message?');
    // Oldest on top, the newest selected; the arrow keys move the choice.
    expect(list).toMatch(/1\. first message[\s\S]*❯\s+2\. second message/);
    ui.keys('Up');
    await ui.waitFor(/❯\s+1\. first message/);
    ui.keys('Down');
    await ui.waitFor(/❯\s+2\. second message/);
    ui.keys('Enter');
    // Checkpointing is off here: the question says the files stay as they are.
    const ask = await ui.waitFor('Enter to confirm');
    expect(ask.replace(/\s+/g, ' ')).toContain('File changes are kept');
    ui.keys('Enter');
    await ui.waitFor('file changes are kept; it is back in the input');
    const screen = ui.capture();
    expect(screen).not.toContain('answer two');
    expect(screen).toContain('> second message');
    ui.keys('End');
    ui.submit(' again');
    await ui.waitFor('answer three');
    const last = gemini.requestsOf('streamGenerateContent')[2]!.body as Body;
    expect(texts(last)).toContain('second message again');
    expect(texts(last)).not.toContain('answer two');
    expect(texts(last)).toContain('answer one');
  });

  it('Ctrl+G opens the input in $EDITOR and brings the saved text back into the input, unsent', async () => {
    await ui.waitFor(INPUT_READY);
    ui.type('draft');
    ui.keys('C-g');
    await ui.waitFor('draft and more from the editor');
    expect(gemini.requestsOf('streamGenerateContent')).toHaveLength(3);
    ui.keys('Enter');
    await ui.waitFor('answer four');
    expect(texts(gemini.requestsOf('streamGenerateContent')[3]!.body as Body)).toContain(
      'draft and more from the editor',
    );
  });

  it('/vim gives vi keys in the input: Esc for normal mode, motions and edits, Enter sends', async () => {
    await ui.waitFor(INPUT_READY);
    ui.submit('/vim');
    await ui.waitFor('[INSERT]');
    ui.type('hello big world');
    ui.keys('Escape');
    await ui.waitFor('[NORMAL]');
    ui.type('bbdw'); // back two words, delete "big "
    await ui.waitFor('> hello world');
    ui.type('D'); // delete to the end: "world"
    await ui.waitFor((s) => /> hello *\n/.test(s) || /> hello\s*$/m.test(s));
    ui.type('A');
    await ui.waitFor('[INSERT]');
    ui.submit('there');
    await ui.waitFor('answer five');
    expect(texts(gemini.requestsOf('streamGenerateContent')[4]!.body as Body)).toContain('hello there');
  });
});
