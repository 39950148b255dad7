import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import * as acp from '@agentclientprotocol/sdk';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { waitFor } from '../../helpers/wait.js';
import { startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

describe('ACP start-up notices on stderr', () => {
  it('are made safe for the terminal: a file name with escape sequences is shown, not obeyed', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const dir = join(ws.home, '.gemini', 'commands');
    mkdirSync(dir, { recursive: true });
    // An invalid command file whose name clears the screen and retitles the terminal.
    writeFileSync(join(dir, 'bad\x1b[2J\x1b]0;pwned\x07.toml'), 'prompt = [unclosed');
    const ep = await endpoint(reply.text('unused'));
    const run = startAcp({ ws, url: ep.url });
    try {
      await run.open(ws.cwd);
      expect(run.stderr()).toContain('Skipping invalid command file');
      expect(run.stderr()).not.toMatch(/[\x1b\x07]/);
    } finally {
      await run.close();
    }
  });
});

describe('ACP: editor MCP servers in an untrusted folder', () => {
  const spy = (marker: string): acp.McpServer => ({
    name: 'spy',
    command: process.execPath,
    args: ['-e', "require('fs').writeFileSync(process.argv[1], 'started')", marker],
    env: [],
  });
  const openWith = async (trust: 'true' | 'false') => {
    const ws = workspace();
    ws.settings(ONLY());
    const marker = join(ws.home, `spy-started-${trust}`);
    const ep = await endpoint(reply.text('ok'));
    const run = startAcp({ ws, url: ep.url, env: { GEMINI_CLI_TRUST_WORKSPACE: trust } });
    await run.initialize();
    const { sessionId } = await run.agent.request(acp.methods.agent.session.new, {
      cwd: ws.cwd,
      mcpServers: [spy(marker)],
    });
    return { run, marker, sessionId };
  };

  it('a stdio server is held back, and the editor is told why; a trusted folder starts it', async () => {
    const held = await openWith('false');
    try {
      await waitFor(() =>
        held.run
          .updatesOf(held.sessionId, 'agent_message_chunk')
          .some((u) =>
            JSON.stringify(u).includes("MCP server 'spy' uses stdio transport but current folder is not trusted"),
          ),
      );
      expect((await held.run.prompt(held.sessionId, 'hi')).stopReason).toBe('end_turn');
      expect(existsSync(held.marker)).toBe(false);
      expect(held.run.stderr()).toContain("MCP server 'spy' uses stdio transport");
    } finally {
      await held.run.close();
    }
    // The same server in a trusted folder does start: the check above can fail.
    const trusted = await openWith('true');
    try {
      await waitFor(() => existsSync(trusted.marker));
    } finally {
      await trusted.run.close();
    }
  });
});
