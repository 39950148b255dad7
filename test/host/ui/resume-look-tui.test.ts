import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultProjectTempDir } from '../../../host/config/paths.js';
import { SNAPSHOT_ACK } from '../../../host/core/compression.js';
import { INTERRUPTED_TEXT } from '../../../host/core/history.js';
import { CANCELLED_BY_USER } from '../../../host/scheduler/texts.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { tempDir } from '../../helpers/tmp.js';
import { INPUT_READY, hasTmux, TmuxUi } from './tmux.js';

const t = '2026-01-01T00:00:00.000Z';
const user = (...parts: object[]) => ({ type: 'content', time: t, content: { role: 'user', parts } });
const model = (...parts: object[]) => ({ type: 'content', time: t, content: { role: 'model', parts } });

/** A session file as the recorder writes it: a header, then its records. */
function writeSession(ws: ReturnType<typeof workspace>, id: string, records: object[]): void {
  const dir = join(defaultProjectTempDir(ws.cwd, {}, ws.home), 'chats');
  mkdirSync(dir, { recursive: true });
  const header = {
    type: 'session',
    version: 1,
    id,
    startTime: t,
    cwd: ws.cwd,
    model: 'gemini-2.5-flash',
    kind: 'chat',
  };
  const lines = [header, ...records].map((r) => JSON.stringify(r)).join('\n');
  writeFileSync(join(dir, `session-2026-01-01T00-00-00-${id.slice(0, 8)}.jsonl`), `${lines}\n`);
}

describe.skipIf(!hasTmux)('a resumed session looks as it did', () => {
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  afterEach(async () => {
    ui?.kill();
    await gemini?.close();
  });

  async function resume(ws: ReturnType<typeof workspace>): Promise<string> {
    gemini = await startScriptedGemini([]);
    ui = TmuxUi.start({
      cwd: ws.cwd,
      scriptDir: tempDir('ui-scripts-'),
      env: { GEMINI_CLI_HOME: ws.home, GEMINI_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: gemini.url },
      argv: [process.execPath, requireBuilt(ENTRY.host), '--resume', 'latest'],
      width: 100,
      height: 30,
    });
    await ui.waitFor(INPUT_READY);
    return ui.waitFor('Resumed session');
  }

  it('a denied edit is not ✓, a finished turn is not "interrupted", an @path turn is one message', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const call = { id: 'w1', name: 'filesystem__write_file', args: { file_path: 'a.txt', content: 'x' } };
    writeSession(ws, '11111111-aaaa-4bbb-8ccc-000000000001', [
      user({ text: 'change a.txt' }),
      model({ functionCall: call }),
      user({ functionResponse: { id: 'w1', name: call.name, response: { error: CANCELLED_BY_USER } } }),
      model({ text: INTERRUPTED_TEXT }),
      user({ text: 'then summarise @a.txt please' }, { text: '\n--- Content from referenced files ---\nsecret body' }),
      model({ text: 'It says x.' }),
    ]);
    const screen = await resume(ws);
    expect(screen).not.toMatch(/✓ filesystem__write_file/);
    expect(screen).toMatch(/filesystem__write_file/);
    expect(screen).not.toContain('interrupted');
    expect(screen).toContain('> then summarise @a.txt please');
    expect(screen).not.toContain('Content from referenced files');
    expect(screen).not.toContain('secret body');
  });

  it('calls the model sent without ids show their real status and output, as the chat showed them', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    // As recorded from a real turn: the model's calls carry no id, the host's responses carry the id it made.
    const read = { name: 'filesystem__read_file', args: { file_path: 'notes.txt' } };
    const shell = { name: 'shell__run_shell_command', args: { command: 'false' } };
    const readAgain = { name: 'filesystem__read_file', args: { file_path: 'todo.txt' } };
    const answer = (id: string, name: string, response: object) => ({ functionResponse: { id, name, response } });
    writeSession(ws, '33333333-aaaa-4bbb-8ccc-000000000003', [
      user({ text: 'look at my notes' }),
      model({ functionCall: read }, { functionCall: shell }, { functionCall: readAgain }),
      user(
        answer('filesystem__read_file_1_0', read.name, { output: 'NOTES-BODY-LINE' }),
        answer('shell__run_shell_command_1_1', shell.name, { error: 'Command exited with code 1' }),
        answer('filesystem__read_file_1_2', read.name, { output: 'TODO-BODY-LINE' }),
      ),
      model({ text: 'Your notes say hello.' }),
    ]);
    const screen = await resume(ws);
    expect(screen).toMatch(/✓ filesystem__read_file[^\n]*notes\.txt/);
    expect(screen).toContain('NOTES-BODY-LINE');
    expect(screen).toMatch(/✗ shell__run_shell_command/);
    expect(screen).toContain('Command exited with code 1');
    expect(screen).toMatch(/✓ filesystem__read_file[^\n]*todo\.txt/);
    expect(screen).toContain('TODO-BODY-LINE');
    expect(screen).not.toContain('cancelled');
    expect(screen).toContain('Your notes say hello.');
  });

  it('a compressed session shows the conversation the user saw, not the summary and "Got it"', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const snapshot = '<state_snapshot>\n<overall_goal>old goal</overall_goal>\n</state_snapshot>';
    writeSession(ws, '22222222-aaaa-4bbb-8ccc-000000000002', [
      user({ text: 'first real question' }),
      model({ text: 'first real answer' }),
      {
        type: 'replace',
        time: t,
        reason: 'compress',
        history: [
          { role: 'user', parts: [{ text: snapshot }] },
          { role: 'model', parts: [{ text: SNAPSHOT_ACK }] },
        ],
      },
      user({ text: 'second question' }),
      model({ text: 'second answer' }),
    ]);
    const screen = await resume(ws);
    expect(screen).toContain('first real question');
    expect(screen).toContain('second answer');
    expect(screen).not.toContain('Got it');
    expect(screen).not.toContain('state_snapshot');
  });
});
