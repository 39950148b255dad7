import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { INPUT_READY, hasTmux, TmuxUi } from './tmux.js';

describe.skipIf(!hasTmux)('/rewind with checkpointing on', () => {
  const ws = workspace();
  const target = ws.file('notes.txt', 'old text\n');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('filesystem'));
    gemini = await startScriptedGemini([
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: target, content: 'new text\n' } }),
      reply.text('changed it'),
    ]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host), '--checkpointing'],
      width: 100,
      height: 30,
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('puts the files back as they were before the message, too', async () => {
    // Checkpointing classifies the edit from the registry: the server must be listed first.
    await ui.waitFor('MCP 1/1');
    ui.submit('change the notes');
    await ui.waitFor('[y] allow once');
    ui.type('y');
    await ui.waitFor('changed it');
    expect(readFileSync(target, 'utf8')).toBe('new text\n');
    ui.submit('/rewind 1');
    // A checkpoint holds the files: Gemini CLI's three choices, conversation and code first.
    const ask = await ui.waitFor('Restore code only (the conversation stays)');
    expect(ask).toContain('❯ Rewind conversation and code');
    expect(ask).toContain('Rewind conversation only (file changes are kept)');
    expect(ask).toContain('Restore code only (the conversation stays)');
    ui.keys('Enter');
    await ui.waitFor('(files restored)');
    expect(readFileSync(target, 'utf8')).toBe('old text\n');
    expect(ui.capture()).toContain('> change the notes');
  });
});
