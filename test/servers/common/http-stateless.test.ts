import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { META } from '../../../protocol/meta.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { tempDir } from '../../helpers/tmp.js';
import { textOf } from '../../helpers/mcp.js';
import { startHttpServer } from './http-server.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** One JSON-RPC request, no session: the answer's message. */
async function ask(url: string, message: unknown): Promise<{ status: number; sessionId: string | null; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(message) });
  return { status: res.status, sessionId: res.headers.get('mcp-session-id'), body: await res.text() };
}

describe('--stateless', () => {
  it('every request stands alone: any replica answers it, no session id, no confirms mark, the client approves', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'a.txt'), 'alpha\n');
    const a = await startHttpServer(ENTRY.filesystem, ['--root', root, '--stateless', '--replica-id', 'a'], children);
    const b = await startHttpServer(ENTRY.filesystem, ['--root', root, '--stateless', '--replica-id', 'b'], children);

    // The real SDK client, declaring elicitation: it gets no session and is never asked anything.
    let asked = 0;
    const client = new Client({ name: 'stateless-test', version: '1' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => {
      asked++;
      return { action: 'decline' };
    });
    const transport = new StreamableHTTPClientTransport(new URL(a.url));
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    const { tools } = await client.listTools();
    const write = tools.find((t) => t.name === 'write_file')!;
    expect(write).toBeDefined();
    expect(write._meta?.[META.confirms]).toBeUndefined();
    expect(
      textOf(await client.callTool({ name: 'read_file', arguments: { absolute_path: join(root, 'a.txt') } })),
    ).toContain('alpha');
    const wrote = await client.callTool({
      name: 'write_file',
      arguments: { file_path: join(root, 'b.txt'), content: 'beta\n' },
    });
    expect(wrote.isError, JSON.stringify(wrote)).toBeFalsy();
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('beta\n');
    expect(asked).toBe(0);
    await client.close();

    // A call sent to the other replica with no initialize there: answered all the same.
    const call = await ask(b.url, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'read_file', arguments: { absolute_path: join(root, 'b.txt') } },
    });
    expect(call.status).toBe(200);
    expect(call.sessionId).toBeNull();
    expect(call.body).toContain('beta');
    const calls = await (await fetch(`${b.base}/metrics`)).text();
    expect(calls).toMatch(/mcp_tool_calls_total\{[^}]*tool="read_file"[^}]*outcome="ok"[^}]*\} 1/);
  });

  it('refuses what needs a session: GET streams, DELETE and batches', async () => {
    const srv = await startHttpServer(ENTRY.memory, ['--stateless'], children);
    const get = await fetch(srv.url, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await fetch(srv.url, { method: 'DELETE' })).status).toBe(405);
    const batch = await ask(srv.url, [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
    expect(batch.status).toBe(400);
    expect(batch.body).toMatch(/one message per request/);
    const list = await ask(srv.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(list.body).toContain('save_memory');
  });

  it('the shell server refuses it and says why; stdio refuses it', () => {
    const shell = spawnSync(process.execPath, [requireBuilt(ENTRY.shell), '--transport', 'http', '--stateless'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(shell.status).toBe(2);
    expect(shell.stderr).toMatch(/--stateless is refused: the shell server keeps the background processes/);
    const stdio = spawnSync(process.execPath, [requireBuilt(ENTRY.web), '--stateless'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(stdio.status).toBe(2);
    expect(stdio.stderr).toMatch(/--stateless needs --transport http/);
  });
});
