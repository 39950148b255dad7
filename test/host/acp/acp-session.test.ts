import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { chunk, reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { messageText, startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();

/** The function responses the model was sent, by tool name. */
function responsesSent(body: { contents: { parts: { functionResponse?: { name: string; response: unknown } }[] }[] }) {
  return body.contents.flatMap((c) => c.parts.filter((p) => p.functionResponse).map((p) => p.functionResponse!));
}

describe('gemini-mcp --acp over the SDK client', () => {
  it('initialize advertises protocol 1, loadSession, prompt and MCP capabilities and the API-key auth method', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const run = startAcp({ ws });
    try {
      const init = await run.initialize();
      expect(init.protocolVersion).toBe(1);
      expect(init.agentCapabilities).toMatchObject({
        loadSession: true,
        promptCapabilities: { image: true, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      });
      expect(init.authMethods?.[0]?.description).toContain('GEMINI_API_KEY');
      // No credentials in the environment: a session asks the editor to authenticate, naming what to set.
      const err = await run.agent
        .request(acp.methods.agent.session.new, { cwd: ws.cwd, mcpServers: [] })
        .catch((e: acp.RequestError) => e);
      expect(err).toMatchObject({ code: -32000 });
      expect(String((err as acp.RequestError).message)).toMatch(/GEMINI_API_KEY/);
      const auth = await run.agent
        .request(acp.methods.agent.authenticate, { methodId: 'gemini-api-key' })
        .catch((e: acp.RequestError) => e);
      expect(auth).toMatchObject({ code: -32000 });
    } finally {
      await run.close();
    }
  });

  it('streams thoughts and text, reports a read with kind/title/locations, and ends the turn', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('notes.txt', 'alpha\nbeta\n');
    const ep = await endpoint(
      {
        method: 'generateContentStream',
        response: [
          chunk([{ text: '**Looking** at the notes', thought: true }]),
          chunk([{ functionCall: { id: 'c1', name: 'filesystem__read_file', args: { absolute_path: file } } }], true),
        ],
      },
      reply.text('The notes say ', 'alpha and beta.'),
    );
    const run = startAcp({ ws, url: ep.url });
    try {
      await run.initialize();
      const { sessionId, modes } = await run.agent.request(acp.methods.agent.session.new, {
        cwd: ws.cwd,
        mcpServers: [],
      });
      expect(modes?.availableModes.map((m) => m.id)).toEqual(['default', 'autoEdit', 'yolo', 'plan']);
      const res = await run.prompt(sessionId, 'What do the notes say?');
      expect(res.stopReason).toBe('end_turn');
      expect(messageText(run, sessionId)).toBe('The notes say alpha and beta.');
      const thought = run.updatesOf(sessionId, 'agent_thought_chunk')[0];
      expect(thought).toMatchObject({ content: { type: 'text', text: expect.stringContaining('Looking') } });
      const call = run.updatesOf(sessionId, 'tool_call')[0];
      expect(call).toMatchObject({
        toolCallId: 'c1',
        kind: 'read',
        title: 'notes.txt', // Gemini CLI's title for a read: the path in the workspace
        locations: [{ path: file }],
      });
      const done = run.updatesOf(sessionId, 'tool_call_update').at(-1);
      expect(done, JSON.stringify(run.updates) + run.stderr()).toMatchObject({ toolCallId: 'c1', status: 'completed' });
      expect(JSON.stringify(done)).toContain('alpha');
      // stdout carried protocol messages only.
      for (const line of run.stdoutLines()) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    } finally {
      await run.close();
    }
  });

  it('an edit asks through session/request_permission; rejected, the file stays unchanged and the model is told', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('keep.txt', 'original\n');
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: file, content: 'changed\n' } }),
      reply.text('Understood.'),
    );
    const run = startAcp({ ws, url: ep.url, permission: () => 'reject_once' });
    try {
      const sessionId = await run.open(ws.cwd);
      const res = await run.prompt(sessionId, 'change keep.txt');
      expect(res.stopReason).toBe('end_turn');
      expect(readFileSync(file, 'utf8')).toBe('original\n');
      expect(run.permissions).toHaveLength(1);
      const ask = run.permissions[0]!;
      expect(ask.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
      expect(ask.toolCall.content?.[0]).toMatchObject({
        type: 'diff',
        path: file,
        oldText: 'original\n',
        newText: 'changed\n',
      });
      expect(run.updatesOf(sessionId, 'tool_call')[0]).toMatchObject({ kind: 'edit', locations: [{ path: file }] });
      expect(run.updatesOf(sessionId, 'tool_call_update').at(-1)).toMatchObject({ toolCallId: 'w1', status: 'failed' });
      // As in Gemini CLI's editor mode, a rejection is not a cancel: the same prompt tells the model and goes on.
      const requests = ep.requestsOf('streamGenerateContent');
      expect(requests).toHaveLength(2);
      const sent = responsesSent(requests[1]!.body);
      expect(JSON.stringify(sent)).toContain('Tool \\"filesystem__write_file\\" was canceled by the user.');
    } finally {
      await run.close();
    }
  });

  it('allow once writes the edit and the update carries the diff', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = join(ws.cwd, 'new.txt');
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: file, content: 'hello\n' } }),
      reply.text('Done.'),
    );
    const run = startAcp({ ws, url: ep.url, permission: () => 'allow_once' });
    try {
      const sessionId = await run.open(ws.cwd);
      await run.prompt(sessionId, 'go');
      expect(readFileSync(file, 'utf8')).toBe('hello\n');
      const done = run.updatesOf(sessionId, 'tool_call_update').at(-1);
      expect(done).toMatchObject({ status: 'completed', content: [{ type: 'diff', path: file, newText: 'hello\n' }] });
    } finally {
      await run.close();
    }
  });

  it('reject always is remembered for the session: the same command is refused unasked and never runs', async () => {
    const ws = workspace();
    ws.settings(ONLY('shell'));
    const marker = join(ws.cwd, 'ran.txt');
    const cmd = { name: 'shell__run_shell_command', args: { command: `touch ${marker}` } };
    const ep = await endpoint(
      // A rejection answers the model and the prompt goes on: the model tries again in the same prompt.
      reply.calls({ id: 'a1', ...cmd }),
      reply.calls({ id: 'a2', ...cmd }),
      reply.text('I will not run it.'),
    );
    const run = startAcp({ ws, url: ep.url, permission: () => 'reject_always' });
    try {
      const sessionId = await run.open(ws.cwd);
      const res = await run.prompt(sessionId, 'touch it');
      expect(res.stopReason).toBe('end_turn');
      expect(ep.requestsOf('streamGenerateContent')).toHaveLength(3);
      expect(run.permissions).toHaveLength(1);
      expect(run.permissions[0]!.toolCall).toMatchObject({ kind: 'execute' });
      expect(existsSync(marker)).toBe(false);
      const ends = run.updatesOf(sessionId, 'tool_call_update').filter((u) => 'rawOutput' in u && u.rawOutput);
      expect(ends.map((u) => (u as { status?: string }).status)).toEqual(['failed', 'failed']);
    } finally {
      await run.close();
    }
  });

  it('allow always is remembered: the second edit runs without asking', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const a = join(ws.cwd, 'a.txt');
    const b = join(ws.cwd, 'b.txt');
    const ep = await endpoint(
      reply.calls({ id: 'w1', name: 'filesystem__write_file', args: { file_path: a, content: 'A\n' } }),
      reply.calls({ id: 'w2', name: 'filesystem__write_file', args: { file_path: b, content: 'B\n' } }),
      reply.text('Both written.'),
    );
    const run = startAcp({ ws, url: ep.url, permission: () => 'allow_always' });
    try {
      const sessionId = await run.open(ws.cwd);
      await run.prompt(sessionId, 'go');
      expect(readFileSync(a, 'utf8')).toBe('A\n');
      expect(readFileSync(b, 'utf8')).toBe('B\n');
      expect(run.permissions).toHaveLength(1);
      // "Allow always" on an edit switched default to autoEdit: the editor's mode picker is told.
      expect(run.updatesOf(sessionId, 'current_mode_update')).toEqual([
        { sessionUpdate: 'current_mode_update', currentModeId: 'autoEdit' },
      ]);
      expect(run.updatesOf(sessionId).findIndex((u) => u.sessionUpdate === 'current_mode_update')).toBeLessThan(
        run.updatesOf(sessionId).findIndex((u) => u.sessionUpdate === 'tool_call' && u.toolCallId === 'w2'),
      );
    } finally {
      await run.close();
    }
  });

  it('authenticate succeeds once credentials are in the environment', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const run = startAcp({ ws, url: 'http://127.0.0.1:9' });
    try {
      await run.initialize();
      await expect(run.agent.request(acp.methods.agent.authenticate, { methodId: 'gemini-api-key' })).resolves.toEqual(
        {},
      );
      const bad = await run.agent
        .request(acp.methods.agent.authenticate, { methodId: 'oauth-personal' })
        .catch((e: acp.RequestError) => e);
      expect(bad).toMatchObject({ code: -32602 });
    } finally {
      await run.close();
    }
  });
});
