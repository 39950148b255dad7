import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { ONLY, workspace } from '../../helpers/run-host.js';
import { hostEnv } from './acp-client.js';

/** Raw lines, as a broken editor would send them: each gets the right JSON-RPC error and serving goes on. */
/** The agent on raw stdio: `send` writes one line and resolves with the answer that carries an id. */
function rawAgent(ws: ReturnType<typeof workspace>) {
  const child = spawn(process.execPath, [requireBuilt(ENTRY.host), '--acp'], {
    cwd: ws.cwd,
    env: hostEnv({ ws, url: 'http://127.0.0.1:9' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  const replies: Record<string, unknown>[] = [];
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((v: Record<string, unknown>) => void)[] = [];
  lines.on('line', (l) => {
    const msg = JSON.parse(l) as Record<string, unknown>;
    replies.push(msg);
    // Notifications (available commands) may come between answers.
    if ('id' in msg) waiting.shift()?.(msg);
  });
  const send = (raw: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      waiting.push(resolve);
      child.stdin!.write(`${raw}\n`);
    });
  const rpc = (id: number, method: string, params: unknown) =>
    send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  return { child, exited, replies, send, rpc };
}

describe('ACP protocol faults', () => {
  it('parse error, invalid request, method not found, invalid params and unknown session; then still serving', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const { child, exited, replies, send, rpc } = rawAgent(ws);
    expect(await send('{not json')).toMatchObject({ id: null, error: { code: -32700 } });
    expect(await rpc(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} })).toMatchObject({
      id: 1,
      result: { protocolVersion: 1 },
    });
    expect(await rpc(2, 'session/teleport', {})).toMatchObject({ id: 2, error: { code: -32601 } });
    expect(await rpc(3, 'session/new', { cwd: 42, mcpServers: [] })).toMatchObject({ id: 3, error: { code: -32602 } });
    expect(await rpc(4, 'session/new', { cwd: 'relative/dir', mcpServers: [] })).toMatchObject({
      id: 4,
      error: { code: -32602 },
    });
    expect(await rpc(5, 'session/prompt', { sessionId: 'nope', prompt: [{ type: 'text', text: 'hi' }] })).toMatchObject(
      { id: 5, error: { code: -32002 } },
    );
    expect(await rpc(6, 'session/set_mode', { sessionId: 'nope' })).toMatchObject({ id: 6, error: { code: -32602 } });
    // Still serving after all of that.
    const ok = await rpc(7, 'session/new', { cwd: ws.cwd, mcpServers: [] });
    expect(ok).toMatchObject({ id: 7, result: { sessionId: expect.any(String) } });
    child.stdin!.end();
    expect(await exited).toBe(0);
    for (const r of replies) expect(r.jsonrpc).toBe('2.0');
  });

  it('refuses a session folder that is missing, a file or holds a NUL, as Gemini CLI does', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    ws.file('a-file.txt', 'x');
    const { child, exited, rpc } = rawAgent(ws);
    await rpc(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
    const missing = await rpc(2, 'session/new', { cwd: join(ws.cwd, 'no-such-dir'), mcpServers: [] });
    expect(missing).toMatchObject({ id: 2, error: { code: -32602 } });
    expect(JSON.stringify(missing)).toContain('Directory does not exist');
    const file = await rpc(3, 'session/new', { cwd: join(ws.cwd, 'a-file.txt'), mcpServers: [] });
    expect(file).toMatchObject({ id: 3, error: { code: -32602, message: expect.stringContaining('Not a directory') } });
    const nul = await rpc(4, 'session/new', { cwd: `${ws.cwd}\u0000/x`, mcpServers: [] });
    expect(nul).toMatchObject({ id: 4, error: { code: -32602 } });
    expect(await rpc(5, 'session/new', { cwd: ws.cwd, mcpServers: [] })).toMatchObject({
      id: 5,
      result: { sessionId: expect.any(String) },
    });
    child.stdin!.end();
    expect(await exited).toBe(0);
  });

  it('answers a 50 MB prompt with an error for that request and goes on serving', async () => {
    const ws = workspace();
    ws.settings(ONLY());
    const { child, exited, send, rpc } = rawAgent(ws);
    await rpc(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
    const opened = (await rpc(2, 'session/new', { cwd: ws.cwd, mcpServers: [] })) as { result: { sessionId: string } };
    const sessionId = opened.result.sessionId;
    // The id comes last, after 50 MB of text: the agent finds it anyway.
    const huge = `{"jsonrpc":"2.0","method":"session/prompt","params":{"sessionId":"${sessionId}","prompt":[{"type":"text","text":"${'a'.repeat(50 * 1024 * 1024)}"}]},"id":3}`;
    const answer = await send(huge);
    expect(answer).toMatchObject({ id: 3, error: { code: -32600, message: expect.stringContaining('byte limit') } });
    // The same session still answers: the connection and its sessions survived.
    expect(await rpc(4, 'session/set_mode', { sessionId, modeId: 'default' })).toMatchObject({ id: 4, result: {} });
    child.stdin!.end();
    expect(await exited).toBe(0);
  });
});
