import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { describeTmux, INPUT_READY, TmuxUi } from '../ui/tmux.js';
import { hook, records } from './record-hook.js';

/**
 * What hooks say to the person reaches the conversation, as in Gemini CLI (`ℹ message [hook]`), not only
 * the F12 log: a SessionStart hook's systemMessage, and the reason a BeforeTool hook gives with its ask,
 * which is also shown above the question it forces (in yolo too).
 */
describeTmux('hook messages in the chat', () => {
  const ws = workspace();
  const log = join(ws.home, 'hooks.log');
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    const notes = ws.file('notes.txt', 'secret\n');
    ws.settings({
      ...ONLY('filesystem'),
      hooks: {
        SessionStart: [
          {
            hooks: [
              {
                type: 'command',
                name: 'greeter',
                command: hook(log, 'json', JSON.stringify({ systemMessage: 'Welcome from the session hook' })),
              },
            ],
          },
        ],
        BeforeTool: [
          {
            matcher: 'read_file',
            hooks: [
              {
                type: 'command',
                name: 'guard',
                command: hook(
                  log,
                  'json',
                  JSON.stringify({ decision: 'ask', systemMessage: 'Reading notes needs a second look' }),
                ),
              },
            ],
          },
        ],
      },
    });
    gemini = await startScriptedGemini([
      reply.calls({ id: 'r1', name: 'filesystem__read_file', args: { file_path: notes } }),
      reply.text('Read the notes.'),
    ]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host), '--yolo'],
      width: 110,
      height: 40,
    });
    await ui.waitFor(INPUT_READY);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('a SessionStart systemMessage is shown in the conversation with the hook’s name', async () => {
    const screen = await ui.waitFor('Welcome from the session hook');
    expect(screen).toMatch(/ℹ Welcome from the session hook \[greeter\]/);
    expect(records(log).map((r) => r.payload.hook_event_name)).toEqual(['SessionStart']);
  });

  it('a BeforeTool ask shows its reason in the conversation and above the question, even in yolo', async () => {
    ui.submit('read my notes');
    const screen = await ui.waitFor('[y] allow once');
    expect(screen).toMatch(/ℹ Reading notes needs a second look \[guard\]/);
    // Once in the conversation, once above the question.
    expect(screen.split('Reading notes needs a second look').length - 1).toBe(2);
    ui.type('y');
    await ui.waitFor('Read the notes.');
  });
});
