import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { ENTRY, requireBuilt } from '../../helpers/paths.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { waitFor } from '../../helpers/wait.js';

/**
 * The operator's `--root` is a ceiling: a client offering MCP roots (file:///, a sibling folder) must not
 * widen it, over stdio or Streamable HTTP, for the filesystem, shell and memory servers alike; a narrower
 * client root narrows; the first call over HTTP already runs under the client's roots.
 */

const children: ChildProcess[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => undefined);
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGTERM');
});

/** A workspace (`root`, with `root/sub`) and a sibling holding a secret, all real temp dirs. */
function layout() {
  const base = tempDir('roots-');
  const root = join(base, 'ws');
  const sub = join(root, 'sub');
  const sibling = join(base, 'sibling');
  mkdirSync(sub, { recursive: true });
  mkdirSync(sibling);
  writeFileSync(join(root, 'top.txt'), 'top of the workspace');
  writeFileSync(join(sub, 'inner.txt'), 'inside sub');
  writeFileSync(join(sibling, 'secret.txt'), 'SIBLING-SECRET');
  return { base, root, sub, sibling };
}

const uri = (dir: string) => pathToFileURL(dir).href;

async function stdio(entry: string, root: string, roots: string[]): Promise<StdioServer> {
  // startStdioServer turns paths into file: URIs; '/' becomes file:///.
  const s = await startStdioServer(entry, { args: ['--root', root], roots });
  closers.push(() => s.close());
  return s;
}

async function startHttp(entry: string, root: string): Promise<{ url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [requireBuilt(entry), '--transport', 'http', '--port', '0', '--root', root], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on http:\/\/[^\s]+:(\d+)\/mcp/.exec(stderr);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stderr: () => stderr };
}

async function httpClient(url: string, roots: string[], delayMs = () => 0) {
  const client = new Client({ name: 'roots-test', version: '1' }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, async () => {
    await new Promise((r) => setTimeout(r, delayMs()));
    return { roots: roots.map((r) => ({ uri: r })) };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  closers.push(() => client.close());
  return {
    client,
    call: async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

type Call = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

/** Reads and writes outside `root` fail; inside they work. */
async function expectConfined(call: Call, l: ReturnType<typeof layout>) {
  const secret = await call('read_file', { absolute_path: join(l.sibling, 'secret.txt') });
  expect(secret.isError).toBe(true);
  expect(textOf(secret)).not.toContain('SIBLING-SECRET');
  const passwd = await call('read_file', { absolute_path: '/etc/passwd' });
  expect(passwd.isError).toBe(true);
  const written = await call('write_file', { file_path: join(l.sibling, 'planted.txt'), content: 'x' });
  expect(written.isError).toBe(true);
  expect(existsSync(join(l.sibling, 'planted.txt'))).toBe(false);
  const inside = await call('read_file', { absolute_path: join(l.root, 'top.txt') });
  expect(textOf(inside)).toContain('top of the workspace');
}

/** A root inside --root narrows: the rest of the workspace is out of reach. */
async function expectNarrowed(call: Call, l: ReturnType<typeof layout>) {
  const top = await call('read_file', { absolute_path: join(l.root, 'top.txt') });
  expect(top.isError).toBe(true);
  const inner = await call('read_file', { absolute_path: join(l.sub, 'inner.txt') });
  expect(textOf(inner)).toContain('inside sub');
  const w = await call('write_file', { file_path: join(l.root, 'planted.txt'), content: 'x' });
  expect(w.isError).toBe(true);
  expect(existsSync(join(l.root, 'planted.txt'))).toBe(false);
}

describe('client roots never widen --root (filesystem server)', () => {
  it('stdio: file:/// and a sibling root are ignored, with a log line; writes outside fail', async () => {
    const l = layout();
    const s = await stdio(ENTRY.filesystem, l.root, ['/', l.sibling]);
    const logged: string[] = [];
    s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(String(n.params.data)));
    await expectConfined(s.call, l);
    expect(logged.join('\n')).toMatch(/ignoring client root file:\/\/\/.*sibling/);
    expect(s.stderr()).toMatch(/ignoring client root file:\/\/\/.*sibling/);
    expect(s.stderr()).toMatch(/client root file:\/\/\/ is wider than the operator's roots/);
  });

  it('stdio: a root inside --root that is a symlink to the sibling is judged by where it leads', async () => {
    const l = layout();
    const link = join(l.root, 'link-to-sibling');
    symlinkSync(l.sibling, link);
    const s = await stdio(ENTRY.filesystem, l.root, [link]);
    await expectConfined(s.call, l);
    expect(s.stderr()).toMatch(/ignoring client root .*link-to-sibling/);
  });

  it('stdio: a root inside --root narrows it', async () => {
    const l = layout();
    const s = await stdio(ENTRY.filesystem, l.root, [l.sub]);
    await expectNarrowed(s.call, l);
  });

  it('stdio: the roots are asked for as soon as the client is initialized, not inside the first call', async () => {
    const l = layout();
    const client = new Client({ name: 'test-client', version: '1.0.0' }, { capabilities: { roots: {} } });
    let asked = 0;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      return { roots: [{ uri: uri(l.sub) }] };
    });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [requireBuilt(ENTRY.filesystem), '--root', l.root],
      stderr: 'ignore',
    });
    await client.connect(transport);
    closers.push(() => client.close());
    await waitFor(() => asked === 1, 'roots/list before any call');
    await expectNarrowed(async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult, l);
    expect(asked).toBe(1);
  });

  it('Streamable HTTP: file:/// and a sibling root are ignored', async () => {
    const l = layout();
    const { url, stderr } = await startHttp(ENTRY.filesystem, l.root);
    const { call } = await httpClient(url, ['file:///', uri(l.sibling)]);
    await expectConfined(call, l);
    expect(stderr()).toMatch(/ignoring client root file:\/\/\/.*sibling/);
  });

  it('Streamable HTTP: the very first call already runs under a narrowing root', async () => {
    const l = layout();
    const { url } = await startHttp(ENTRY.filesystem, l.root);
    const { call } = await httpClient(url, [uri(l.sub)]);
    // First call of the session: outside the client's root, inside --root.
    const first = await call('read_file', { absolute_path: join(l.root, 'top.txt') });
    expect(first.isError).toBe(true);
    await expectNarrowed(call, l);
  });

  it('Streamable HTTP: a call right after roots/list_changed waits for the slow new answer (bounded)', async () => {
    const l = layout();
    const { url } = await startHttp(ENTRY.filesystem, l.root);
    const roots = [uri(l.root)];
    let delay = 0;
    const { client, call } = await httpClient(url, roots, () => delay);
    expect(textOf(await call('read_file', { absolute_path: join(l.root, 'top.txt') }))).toContain('top of');
    roots.splice(0, 1, uri(l.sub));
    delay = 700;
    const t0 = Date.now();
    await client.sendRootsListChanged();
    const after = await call('read_file', { absolute_path: join(l.root, 'top.txt') });
    expect(after.isError).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(600);
    expect(Date.now() - t0).toBeLessThan(10_000);
  });

  it('raw JSON-RPC over HTTP: a call sent before `initialized` waits for the roots and obeys them', async () => {
    const l = layout();
    const { url } = await startHttp(ENTRY.filesystem, l.root);
    const t0 = Date.now();
    const text = await rawCallBeforeInitialized(url, uri(l.sub), join(l.root, 'top.txt'));
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(text).toMatch(/not in workspace/i);
    expect(text).not.toContain('top of the workspace');
  });
});

describe('the shell and memory servers follow the same rule', () => {
  it('shell: a sibling root does not move the working directory out of --root', async () => {
    const l = layout();
    for (const roots of [[l.sibling], ['/']]) {
      const s = await stdio(ENTRY.shell, l.root, roots);
      const r = await s.call('run_shell_command', { command: 'pwd' });
      expect(textOf(r)).toContain(l.root);
      expect(textOf(r)).not.toContain(l.sibling);
      const up = await s.call('run_shell_command', { command: 'cat secret.txt', directory: '../sibling' });
      expect(up.isError).toBe(true);
      expect(textOf(up)).not.toContain('SIBLING-SECRET');
      await s.close();
    }
  });

  it('shell over HTTP: file:/// does not let the shell leave --root', async () => {
    const l = layout();
    const { url } = await startHttp(ENTRY.shell, l.root);
    const { call } = await httpClient(url, ['file:///']);
    // Relative to file:/// this names the sibling; relative to --root it names nothing.
    const r = await call('run_shell_command', { command: 'cat secret.txt', directory: l.sibling.slice(1) });
    expect(r.isError).toBe(true);
    expect(textOf(r)).not.toContain('SIBLING-SECRET');
  });

  it('memory: context files under a sibling root are not read', async () => {
    const l = layout();
    mkdirSync(join(l.sibling, 'deep'));
    writeFileSync(join(l.sibling, 'deep', 'GEMINI.md'), 'SIBLING-CONTEXT');
    writeFileSync(join(l.sub, 'GEMINI.md'), 'SUB-CONTEXT');
    const home = tempDir('roots-home-');
    for (const roots of [['/'], [l.sibling]]) {
      const s = await startStdioServer(ENTRY.memory, {
        args: ['--root', l.root],
        roots,
        env: { GEMINI_CLI_HOME: home, HOME: home },
      });
      const read = async (target: string) =>
        JSON.stringify(
          await s.client.readResource({ uri: `gemini-memory://context-for?path=${encodeURIComponent(target)}` }),
        );
      expect(await read(join(l.sibling, 'deep', 'x.txt'))).not.toContain('SIBLING-CONTEXT');
      expect(await read(join(l.sub, 'x.txt'))).toContain('SUB-CONTEXT');
      await s.close();
    }
    expect(readFileSync(join(l.sibling, 'deep', 'GEMINI.md'), 'utf8')).toBe('SIBLING-CONTEXT');
  });
});

/**
 * A hand-written client: initialize (declaring roots), then tools/call before the `initialized`
 * notification. It answers the server's roots/list on the call's own stream, then returns the call's text.
 */
async function rawCallBeforeInitialized(url: string, rootUri: string, target: string): Promise<string> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { roots: { listChanged: true } },
        clientInfo: { name: 'raw', version: '1' },
      },
    }),
  });
  await init.text();
  const sid = init.headers.get('mcp-session-id')!;
  const session = { ...headers, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
  const res = await fetch(url, {
    method: 'POST',
    headers: session,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'read_file', arguments: { absolute_path: target } },
    }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  const deadline = Date.now() + 8000;
  while (Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    for (;;) {
      const end = buf.indexOf('\n\n');
      if (end < 0) break;
      const event = buf.slice(0, end);
      buf = buf.slice(end + 2);
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('');
      if (!data) continue;
      const msg = JSON.parse(data) as { id?: number | string; method?: string; result?: CallToolResult };
      if (msg.method === 'roots/list') {
        const answer = await fetch(url, {
          method: 'POST',
          headers: session,
          body: JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { roots: [{ uri: rootUri }] } }),
        });
        await answer.text();
      } else if (msg.id === 2 && msg.result) {
        await reader.cancel();
        return textOf(msg.result);
      }
    }
  }
  throw new Error(`no answer to the call within the deadline: ${buf}`);
}
