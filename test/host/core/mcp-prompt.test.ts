import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../helpers/paths.js';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, runHost, scriptedEndpoints, workspace } from '../../helpers/run-host.js';

const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

describe('headless -p "/prompt arg=value"', () => {
  const endpoint = scriptedEndpoints();
  const ws = workspace();
  ws.settings({ ...ONLY(), mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } });

  it('runs the MCP prompt: its messages are what the model gets', async () => {
    const ep = await endpoint(reply.text('Sunny.'));
    const r = await runHost(['-p', '/args-prompt city=Paris'], { ws, url: ep.url });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Sunny.\n');
    const sent = JSON.stringify(ep.requestsOf('streamGenerateContent')[0]!.body.contents.at(-1));
    expect(sent).toContain('Paris');
    expect(sent).not.toContain('/args-prompt');
  }, 60_000);

  it('a missing required argument is an input error naming it (exit 42), the model is not called', async () => {
    const ep = await endpoint();
    const r = await runHost(['-p', '/args-prompt'], { ws, url: ep.url });
    expect(r.code).toBe(42);
    expect(r.stderr).toContain('needs city=');
    expect(ep.requests).toHaveLength(0);
  }, 60_000);
});
