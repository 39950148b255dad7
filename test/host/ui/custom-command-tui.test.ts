import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { hasTmux, type TmuxUi, startChat } from './tmux.js';

/** A custom command's `!{…}` in the chat: the user sees the command in the shell dialog before it runs. */
describe.skipIf(!hasTmux)('custom commands in the chat', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;
  const marker = join(ws.cwd, 'ran.txt');

  beforeAll(async () => {
    ws.settings(ONLY('shell'));
    const dir = join(ws.home, '.gemini', 'commands');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'stamp.toml'),
      'description = "Stamp a file"\nprompt = "Result: !{echo {{args}} > ran.txt && cat ran.txt}"\n',
    );
    gemini = await startScriptedGemini([reply.text('Stamped.'), reply.text('never used')]);
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 30 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('Tab completes it; its !{} asks with the quoted command; "no" sends nothing; "yes" runs it and sends the output', async () => {
    ui.type('/stam');
    ui.keys('Tab');
    await ui.waitFor(/^> \/stamp\s*$/m);
    ui.type('hello');
    ui.keys('Enter');
    let screen = await ui.waitFor('[y] allow once');
    expect(screen).toContain('echo hello > ran.txt && cat ran.txt');
    ui.keys('Escape');
    await ui.waitFor(/Nothing was sent to the model/);
    expect(existsSync(marker)).toBe(false);
    expect(gemini.requestsOf('streamGenerateContent')).toHaveLength(0);
    ui.submit('/stamp hello');
    screen = await ui.waitFor('[y] allow once');
    ui.type('y');
    const done = await ui.waitFor('Stamped.');
    // The card of the command's !{} says which command ran it.
    expect(done).toMatch(/shell__run_shell_command \(from \/stamp\)/);
    expect(done).not.toContain('(passive)');
    const sent = gemini.requestsOf('streamGenerateContent')[0]!.body.contents.at(-1).parts[0].text;
    expect(sent).toBe('Result: hello');
  }, 90_000);
});
