import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeBlock, safeText } from '../../../host/safe-text.js';
import { ONLY, runHost, workspace } from '../../helpers/run-host.js';
import { reply, type ScriptedGemini, startScriptedGemini } from '../../helpers/scripted-gemini.mjs';
import { hasTmux, type TmuxUi, startChat } from './tmux.js';

/**
 * A hostile MCP server's names, descriptions, prompts, resources and stderr carry terminal escapes; so does
 * a configured server name. Nothing of it reaches the terminal raw: control characters show as escaped text.
 */
const HOSTILE = join(import.meta.dirname, '../../fixtures/hostile-text-server.mjs');
const RAW = /[\u001b\u0007\u009b\r\u202e]/;

function hostileWorkspace() {
  const ws = workspace();
  ws.settings({
    ...ONLY(),
    mcpServers: {
      hostile: { command: process.execPath, args: [HOSTILE], trust: true },
      broken: { command: process.execPath, args: [HOSTILE], env: { HOSTILE_FAIL: '1' } },
      // A configured name that hides the real command behind a conceal sequence.
      'ok\u001b[8m': { command: 'sh', args: ['-c', 'exit 3'] },
    },
  });
  return ws;
}

describe('the sanitiser', () => {
  it('makes every control character visible and drops bidi overrides; multi-line keeps line breaks', () => {
    expect(safeText('a\u001b[8mb\rc\u0007\u009b1m\u202eX\u2066Y\u2069')).toBe('a\\x1b[8mb\\rc\\x07\\x9b1mXY');
    expect(safeText('one\ntwo\tthree')).toBe('one\\ntwo\\tthree');
    expect(safeBlock('one\r\ntwo\n\tthree\u001b]52;c;x\u0007')).toBe('one\ntwo\n\tthree\\x1b]52;c;x\\x07');
    expect(safeText('plain ünïcode — ok')).toBe('plain ünïcode — ok');
  });
});

describe('hostile server text in the subcommands', () => {
  it('mcp list shows the escapes as text, on stdout and stderr', async () => {
    const ws = hostileWorkspace();
    const r = await runHost(['mcp', 'list'], { ws });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(RAW);
    expect(r.stdout).toContain('ok\\x1b[8m');
    expect(r.stdout).toContain('\\x1b[8mHIDDEN'); // the failing server's stderr tail, visible
    expect(r.stdout).toContain('stdio: sh -c exit 3'); // the real command is readable
  });

  it('tools list, tools describe and tools call (on a terminal or not) print no raw escape on stderr', async () => {
    const ws = hostileWorkspace();
    const list = await runHost(['tools', 'list'], { ws });
    expect(list.stdout + list.stderr).not.toMatch(RAW);
    expect(list.stdout).toContain('\\x1b[8mHIDDEN');
    const desc = await runHost(['tools', 'describe', 'hostile__echo_evil'], { ws });
    expect(desc.code, desc.stderr).toBe(0);
    expect(desc.stdout + desc.stderr).not.toMatch(RAW);
    const prompts = await runHost(['mcp', 'prompts'], { ws });
    expect(prompts.stdout + prompts.stderr).not.toMatch(RAW);
    const resources = await runHost(['mcp', 'resources'], { ws });
    expect(resources.stdout + resources.stderr).not.toMatch(RAW);
    expect(resources.stdout).toContain('res \\x1b[8mHIDDEN');
  });

  it('--debug logs and headless stderr are made safe', async () => {
    const ws = hostileWorkspace();
    const r = await runHost(['-p', 'hi', '--debug'], { ws, url: 'http://127.0.0.1:9' });
    expect(r.stderr).toContain('\\x1b[8mHIDDEN');
    expect(r.stderr).not.toMatch(RAW);
  });
});

describe.skipIf(!hasTmux)('hostile server text in the chat', () => {
  const ws = hostileWorkspace();
  let gemini: ScriptedGemini;
  let ui: TmuxUi;

  beforeAll(async () => {
    gemini = await startScriptedGemini([
      reply.calls({ id: 'e1', name: 'hostile__echo_evil', args: {} }),
      reply.text('model says \u001b[8mSECRET\u001b[0m plainly'),
    ]);
    ui = await startChat({ ws, url: gemini.url, height: 50, width: 160 });
  });

  afterAll(async () => {
    ui?.kill();
    await gemini?.close();
  });

  it('/mcp desc shows descriptions, prompts and the stderr tail with the escapes as visible text', async () => {
    await ui.waitFor('MCP ready: hostile');
    ui.submit('/mcp desc');
    const screen = await ui.waitFor('A prompt \\x1b[8mHIDDEN', 20_000).catch(() => ui.capture());
    expect(screen).toContain('A prompt \\x1b[8mHIDDEN');
    expect(screen).toContain('Echoes. \\x1b[8mHIDDEN');
    expect(screen).toContain('fatal \\x1b[8mHIDDEN');
    // Nothing was concealed or overwritten: the text after the conceal sequence is on screen.
    expect(screen).toContain('evil\\rOVERWRITE');
  });

  it("a tool's output and the model's text show their escapes as text in the conversation", async () => {
    ui.submit('go');
    const screen = await ui.waitFor('plainly', 30_000).catch(() => ui.capture());
    expect(screen).toContain('model says \\x1b[8mSECRET\\x1b[0m plainly');
    expect(screen).toContain('result \\x1b[8mHIDDEN');
  });
});
