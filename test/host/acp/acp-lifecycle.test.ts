import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { reply } from '../../helpers/scripted-gemini.mjs';
import { ONLY, scriptedEndpoints, workspace } from '../../helpers/run-host.js';
import { isAlive, waitFor } from '../../helpers/wait.js';
import { EVERYTHING, startEverythingHttp } from '../mcp/everything-helpers.js';
import { messageText, startAcp } from './acp-client.js';

const endpoint = scriptedEndpoints();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill();
});

/** A pass-through HTTP proxy that records the headers each request arrived with. */
async function recordingProxy(port: number): Promise<{ url: string; headers: Record<string, unknown>[] }> {
  const headers: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    headers.push(req.headers);
    const up = request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, headers };
}

/** Every live descendant of a process (from /proc). */
function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, pp] of parent) if (pp === p && !out.includes(pid)) out.push(pid), walk(pid);
  };
  walk(root);
  return out;
}

/** Descendants whose command line contains `needle`. */
function running(root: number, needle: string): number[] {
  return descendants(root).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(needle);
    } catch {
      return false;
    }
  });
}

describe('ACP sessions: editor servers, cancel, modes, load, exit', () => {
  it("uses the editor's own MCP servers (stdio with env, HTTP and SSE with headers) under server__tool names, then exits leaving no process", async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const http = await recordingProxy(await startEverythingHttp('streamableHttp', children));
    const sse = await recordingProxy(await startEverythingHttp('sse', children));
    const ep = await endpoint(
      reply.calls(
        { id: 'e1', name: 'ed__get-env', args: {} },
        { id: 'e2', name: 'edhttp__echo', args: { message: 'from http' } },
        { id: 'e3', name: 'edsse__echo', args: { message: 'from sse' } },
      ),
      reply.text('Both echoed.'),
    );
    const run = startAcp({ ws, url: ep.url, permission: () => 'allow_once' });
    await run.initialize();
    const { sessionId } = await run.agent.request(acp.methods.agent.session.new, {
      cwd: ws.cwd,
      mcpServers: [
        { name: 'ed', command: process.execPath, args: [EVERYTHING], env: [{ name: 'EDITOR_FLAG', value: '1' }] },
        {
          type: 'http',
          name: 'edhttp',
          url: `${http.url}/mcp`,
          headers: [{ name: 'X-Editor', value: 'zed' }],
        },
        { type: 'sse', name: 'edsse', url: `${sse.url}/sse`, headers: [{ name: 'X-Editor', value: 'zed-sse' }] },
      ],
    });
    const res = await run.prompt(sessionId, 'echo three times');
    expect(res.stopReason).toBe('end_turn');
    const ended = run.updatesOf(sessionId, 'tool_call_update').filter((u) => 'status' in u && u.status === 'completed');
    // The stdio server got the editor's env entry.
    expect(JSON.stringify(ended)).toMatch(/EDITOR_FLAG\\+"?: \\+"1/);
    expect(JSON.stringify(ended)).toContain('Echo: from http');
    expect(JSON.stringify(ended)).toContain('Echo: from sse');
    // The editor's headers went with every request to its HTTP and SSE servers.
    expect(http.headers.length).toBeGreaterThan(0);
    expect(http.headers.every((h) => h['x-editor'] === 'zed')).toBe(true);
    expect(sse.headers.length).toBeGreaterThan(0);
    expect(sse.headers.every((h) => h['x-editor'] === 'zed-sse')).toBe(true);
    // Untrusted servers' calls were confirmed through the editor, as configured untrusted servers' are.
    expect(run.permissions.map((p) => p.toolCall.toolCallId).sort()).toEqual(['e1', 'e2', 'e3']);
    // The editor learns the servers' prompts as slash commands.
    await waitFor(() => run.updatesOf(sessionId, 'available_commands_update').length > 0, 'available commands');
    const cmds = run.updatesOf(sessionId, 'available_commands_update')[0]!;
    expect(cmds.sessionUpdate === 'available_commands_update' && cmds.availableCommands.length).toBeGreaterThan(0);

    const kids = descendants(run.child.pid!);
    expect(kids.length).toBeGreaterThan(0);
    expect(await run.close()).toBe(0);
    await waitFor(() => kids.every((pid) => !isAlive(pid)), 'server processes gone', 10_000);
  });

  it('session/cancel stops the turn and every call in flight; their updates say cancelled', async () => {
    const ws = workspace();
    ws.settings(ONLY('shell'));
    const ep = await endpoint(
      reply.calls(
        { id: 's1', name: 'shell__run_shell_command', args: { command: 'echo started; sleep 30' } },
        { id: 's2', name: 'shell__run_shell_command', args: { command: 'sleep 31' } },
      ),
    );
    const run = startAcp({ ws, url: ep.url });
    try {
      const sessionId = await run.open(ws.cwd);
      await run.agent.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'yolo' });
      expect(run.updatesOf(sessionId, 'current_mode_update')).toEqual([
        { sessionUpdate: 'current_mode_update', currentModeId: 'yolo' },
      ]);
      const prompt = run.agent.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'run it' }],
      });
      await waitFor(() => JSON.stringify(run.updatesOf(sessionId, 'tool_call_update')).includes('started'), 'output');
      expect(running(run.child.pid!, 'sleep 3').length).toBeGreaterThan(0);
      const started = Date.now();
      await run.agent.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await prompt).stopReason).toBe('cancelled');
      expect(Date.now() - started).toBeLessThan(20_000);
      // The command's process is gone while the agent lives on (killed, not left running).
      await waitFor(() => running(run.child.pid!, 'sleep 3').length === 0, 'the sleep command killed', 10_000);
      // Every call of the turn ended cancelled: the running one and the one behind it.
      for (const id of ['s1', 's2']) {
        const last = run
          .updatesOf(sessionId, 'tool_call_update')
          .filter((u) => 'toolCallId' in u && u.toolCallId === id)
          .at(-1)!;
        expect(last).toMatchObject({ status: 'failed', rawOutput: { cancelled: true } });
        expect(JSON.stringify(last)).toContain('Cancelled');
      }
      expect(run.updatesOf(sessionId, 'tool_call_update').some((u) => 'status' in u && u.status === 'completed')).toBe(
        false,
      );
      // Unknown modes are invalid params, not internal errors.
      const bad = await run.agent
        .request(acp.methods.agent.session.setMode, { sessionId, modeId: 'turbo' })
        .catch((e: acp.RequestError) => e);
      expect(bad).toMatchObject({ code: -32602 });
    } finally {
      await run.close();
    }
  });

  it('session/load after a restart replays prompts, answers and tool calls before answering, then continues', async () => {
    const ws = workspace();
    ws.settings(ONLY('filesystem'));
    const file = ws.file('a.txt', 'apple\n');
    const ep = await endpoint(
      reply.calls({ id: 'r1', name: 'filesystem__read_file', args: { absolute_path: file } }),
      reply.text('It says apple.'),
      reply.text('Still apple.'),
    );
    const first = startAcp({ ws, url: ep.url });
    await first.initialize();
    const { sessionId } = await first.agent.request(acp.methods.agent.session.new, { cwd: ws.cwd, mcpServers: [] });
    await first.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: 'read a.txt' }],
    });
    expect(await first.close()).toBe(0);

    for (let round = 0; round < 3; round++) {
      const second = startAcp({ ws, url: ep.url });
      try {
        await second.initialize();
        await second.agent.request(acp.methods.agent.session.load, { sessionId, cwd: ws.cwd, mcpServers: [] });
        // Everything was replayed by the time the answer arrived.
        const kinds = second.updatesOf(sessionId).map((u) => u.sessionUpdate);
        expect(kinds.filter((k) => k !== 'available_commands_update')).toEqual([
          'user_message_chunk',
          'tool_call',
          'tool_call_update',
          'agent_message_chunk',
          ...(round > 0 ? ['user_message_chunk', 'agent_message_chunk'] : []),
        ]);
        expect(JSON.stringify(second.updatesOf(sessionId, 'tool_call_update'))).toContain('apple');
        expect(messageText(second, sessionId)).toBe(round > 0 ? 'It says apple.Still apple.' : 'It says apple.');
        if (round === 0) {
          await second.agent.request(acp.methods.agent.session.prompt, {
            sessionId,
            prompt: [{ type: 'text', text: 'again?' }],
          });
          // The model got the whole earlier conversation.
          const body = ep.requestsOf('streamGenerateContent').at(-1)!.body;
          expect(JSON.stringify(body.contents)).toContain('read a.txt');
          expect(JSON.stringify(body.contents)).toContain('It says apple.');
        }
      } finally {
        await second.close();
      }
    }
    const unknown = startAcp({ ws, url: ep.url });
    try {
      await unknown.initialize();
      const err = await unknown.agent
        .request(acp.methods.agent.session.load, { sessionId: 'no-such-session', cwd: ws.cwd, mcpServers: [] })
        .catch((e: acp.RequestError) => e);
      expect(err).toMatchObject({ code: -32002 });
    } finally {
      await unknown.close();
    }
  });
});
