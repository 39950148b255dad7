import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { bundledModule, REPO } from '../../helpers/paths.js';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

// Bundled into one file: twelve servers loading the SDK module by module took ~6 s of CPU, close to the
// session's 5-second wait for third-party servers on a busy 2-core machine.
const FAULT = bundledModule(`${REPO}/test/fixtures/fault-server.mjs`);

/** `count` third-party stdio servers; `env` goes to each (FAULT_NO_INIT keeps one starting forever). */
function servers(prefix: string, count: number, env: Record<string, string> = {}) {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [
      `${prefix}${i}`,
      { command: process.execPath, args: [FAULT], env, trust: true, timeout: 60_000 },
    ]),
  );
}

describe('a headless session with many MCP servers', () => {
  const endpoint = scriptedEndpoints();

  it('connects a dozen at once and declares their tools, with no listener-leak warning', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY(), mcpServers: servers('fast', 12) });
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'hi'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('ok');
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    const [req] = ep.requestsOf('streamGenerateContent');
    const names = req!.body.tools[0].functionDeclarations.map((d: { name: string }) => d.name);
    for (let i = 0; i < 12; i++) expect(names).toContain(`fast${i}__echo`);
  });

  it('reports each of a dozen servers still starting once, with no listener-leak warning', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY(), mcpServers: servers('slow', 12, { FAULT_NO_INIT: '1' }) });
    const ep = await endpoint(reply.text('ok'));
    const r = await runHost(['-p', 'hi'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('ok');
    expect(r.stderr).not.toContain('MaxListenersExceededWarning');
    for (let i = 0; i < 12; i++) {
      expect(r.stderr.split(`MCP server "slow${i}" is still starting`).length - 1).toBe(1);
    }
  });
});
