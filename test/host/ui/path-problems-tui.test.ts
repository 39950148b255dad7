import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../../protocol/file-limits.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { describeTmux, type TmuxUi, startChat } from './tmux.js';

/** A 1×1 PNG: a real image file, so the read goes the way a screenshot's does. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describeTmux('@path problems in the chat', () => {
  const ws = workspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    ws.settings(ONLY('filesystem'));
    ws.file('notes.md', 'the real notes\n');
    truncateSync(ws.file('notes.log', ''), MAX_FILE_BYTES + 1);
    writeFileSync(join(ws.cwd, 'shot.png'), PNG_1X1);
    gemini = await startScriptedGemini([
      reply.text('Pinged alice.'),
      reply.text('Read your notes.'),
      reply.text('One white pixel.'),
    ]);
    ui = await startChat({ ws, url: gemini.url, width: 100, height: 30 });
    await ui.waitFor(/MCP ready/, 60_000);
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('a word after @ that names no file is sent as typed, with a warning in the chat', async () => {
    ui.submit('ping @alice about @types/node');
    const screen = await ui.waitFor('Pinged alice.');
    expect(screen).toContain('Sent as text, not a file in the workspace: @alice, @types/node');
    expect(gemini.requests[0]!.body.contents.at(-1).parts).toEqual([{ text: 'ping @alice about @types/node' }]);
  });

  it('a path that cannot be read is named, nothing is sent, and the prompt stays in the input box to fix', async () => {
    ui.submit('summarise @notes.log');
    const screen = await ui.waitFor(/@notes\.log: too big to read/);
    expect(screen).toContain('The prompt is back in the input box');
    expect(screen).toMatch(/>\s+summarise @notes\.log/);
    expect(gemini.requests).toHaveLength(1);
    // Fix it in place: the last three characters become "md", then send.
    ui.keys('BSpace', 'BSpace', 'BSpace');
    ui.type('md');
    ui.keys('Enter');
    await ui.waitFor('Read your notes.');
    const sent = JSON.stringify(gemini.requests[1]!.body.contents);
    expect(sent).toContain('the real notes');
  });

  it('@shot.png sends the image bytes as inline data', async () => {
    ui.submit('describe @shot.png');
    await ui.waitFor('One white pixel.');
    const parts = gemini.requests[2]!.body.contents.at(-1).parts;
    expect(parts[0].text).toBe('describe @shot.png');
    expect(parts.filter((p: { inlineData?: unknown }) => p.inlineData)).toEqual([
      { inlineData: { mimeType: 'image/png', data: PNG_1X1.toString('base64') } },
    ]);
  });
});
