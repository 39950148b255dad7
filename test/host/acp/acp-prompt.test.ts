import { pathToFileURL } from 'node:url';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { waitFor } from '../../helpers/wait.js';
import { EVERYTHING } from '../mcp/everything-helpers.js';
import { messageText, startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

type Body = { contents: { role: string; parts: Record<string, unknown>[] }[] };

describe('ACP prompts and stop reasons', () => {
  it('text, a file link, an embedded selection and an image all reach the model', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('src/linked file.ts', 'export const linked = 42;\n');
    const ep = await endpoint(reply.text('Seen.'));
    const run = startAcp({ ws, url: ep.url });
    try {
      const sessionId = await run.open(ws.cwd);
      const res = await run.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: 'text', text: 'Explain' },
          { type: 'resource_link', name: 'linked file.ts', uri: pathToFileURL(file).href },
          {
            type: 'resource',
            resource: { uri: 'file:///elsewhere/sel.ts', mimeType: 'text/plain', text: 'const selected = true;' },
          },
          { type: 'image', mimeType: 'image/png', data: PNG_1PX },
        ],
      });
      expect(res.stopReason).toBe('end_turn');
      const user = (ep.requestsOf('streamGenerateContent')[0]!.body as Body).contents.at(-1)!;
      const text = JSON.stringify(user.parts);
      expect(text).toContain('Explain');
      expect(text).toContain('export const linked = 42;'); // the linked file, read through the filesystem server
      expect(text).toContain('const selected = true;');
      expect(user.parts.some((p) => (p.inlineData as { mimeType?: string })?.mimeType === 'image/png')).toBe(true);
      // The read for the link shows as a tool call of kind read.
      expect(run.updatesOf(sessionId, 'tool_call')[0]).toMatchObject({ kind: 'read' });
    } finally {
      await run.close();
    }
  });

  it('stop reasons: refusal on a safety stop, max_turn_requests at the session turn limit', async () => {
    const ws = workspace();
    ws.settings({ ...ONLY('filesystem'), model: { maxSessionTurns: 2 } });
    const file = ws.file('x.txt', 'x\n');
    const ep = await endpoint(
      {
        method: 'generateContentStream',
        response: [
          { candidates: [{ content: { role: 'model', parts: [{ text: 'I cannot' }] }, finishReason: 'SAFETY' }] },
        ],
      },
      reply.calls({ id: 'r1', name: 'filesystem__read_file', args: { absolute_path: file } }),
    );
    const run = startAcp({ ws, url: ep.url });
    try {
      const sessionId = await run.open(ws.cwd);
      const first = await run.prompt(sessionId, 'something unsafe');
      expect(first.stopReason).toBe('refusal');
      const second = await run.prompt(sessionId, 'read it');
      expect(second.stopReason).toBe('max_turn_requests');
    } finally {
      await run.close();
    }
  });

  it("MCP prompts and built-ins offered as slash commands run from the editor's prompt", async () => {
    const ws = workspace();
    ws.settings({
      ...ONLY(),
      mcpServers: { every: { command: process.execPath, args: [EVERYTHING], startup: 'eager' } },
    });
    const ep = await endpoint(reply.text('Prompted.'));
    const run = startAcp({ ws, url: ep.url });
    try {
      const sessionId = await run.open(ws.cwd);
      await waitFor(() => run.updatesOf(sessionId, 'available_commands_update').length > 0, 'available commands');
      const update = run.updatesOf(sessionId, 'available_commands_update')[0]!;
      const names =
        update.sessionUpdate === 'available_commands_update' ? update.availableCommands.map((c) => c.name) : [];
      const simple = names.find((n) => /simple/.test(n));
      expect(simple, names.join(',')).toBeDefined();
      await run.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: `/${simple}` }],
      });
      expect(messageText(run, sessionId)).toBe('Prompted.');
      const sent = JSON.stringify((ep.requestsOf('streamGenerateContent')[0]!.body as Body).contents.at(-1));
      expect(sent).not.toContain(`/${simple}`); // the prompt's messages were sent, not the command text
      // Built-ins answer from the host, without a model request.
      // The editor's list is the registry's: every built-in that runs without a terminal.
      expect(names).toEqual(
        expect.arrayContaining([
          'help',
          'compress',
          'mcp',
          'tools',
          'memory',
          'hooks',
          'policies',
          'extensions',
          'skills',
        ]),
      );
      expect(names).not.toContain('theme');
      const before = ep.requests.length;
      const res = await run.prompt(sessionId, '/mcp');
      expect(res.stopReason).toBe('end_turn');
      // The same view the chat shows: the server, its state and what it offers.
      expect(messageText(run, sessionId)).toMatch(/● every connected — \d+ tools, \d+ prompts/);
      expect(ep.requests.length).toBe(before);
      // A built-in only the chat runs says so instead of going to the model.
      await run.prompt(sessionId, '/theme dark');
      expect(messageText(run, sessionId)).toContain('/theme dark is only available in the interactive chat.');
      expect(ep.requests.length).toBe(before);
    } finally {
      await run.close();
    }
  });
});
