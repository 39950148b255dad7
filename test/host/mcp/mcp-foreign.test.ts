import type { ChildProcess } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { McpClientManager } from '../../../host/mcp/client-manager.js';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { REPO } from '../../helpers/paths.js';
import { EVERYTHING, startEverythingHttp } from './everything-helpers.js';
import { tempDir } from '../../helpers/tmp.js';
import { textOf } from '../../helpers/mcp.js';

const PKG = join(REPO, 'node_modules/@modelcontextprotocol');
const managers: McpClientManager[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.close()));
});
afterAll(() => {
  for (const c of children) c.kill('SIGTERM');
});

function stdio(alias: string, args: string[], env: Record<string, string> = {}): ResolvedServerConfig {
  return {
    alias,
    builtIn: false,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args,
    env: { PATH: process.env.PATH!, ...env },
    timeoutMs: 60_000,
  };
}

async function started(servers: ResolvedServerConfig[], roots: string[] = [REPO]): Promise<McpClientManager> {
  const m = new McpClientManager({ servers, roots });
  managers.push(m);
  m.start();
  await m.whenSettled();
  for (const s of m.states()) expect(s.status, `${s.alias}: ${s.error}`).toBe('connected');
  return m;
}

const everythingOver = (mode: 'sse' | 'streamableHttp') => startEverythingHttp(mode, children);

function checkEverything(m: McpClientManager, alias: string) {
  const s = m.state(alias)!;
  const names = s.tools.map((t) => t.name);
  expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-roots-list']));
  expect(s.prompts.length).toBeGreaterThan(0);
  expect(s.resources.length).toBeGreaterThan(0);
}

describe('foreign servers', () => {
  it('server-everything over stdio: tools, prompts, resources, roots and resources/updated', async () => {
    const m = await started([stdio('everything', [EVERYTHING, 'stdio'])]);
    checkEverything(m, 'everything');
    expect(textOf(await m.callTool('everything', 'echo', { message: 'hi' }))).toContain('hi');
    const sum = await m.callTool('everything', 'get-sum', { a: 2, b: 3 });
    expect(textOf(sum)).toContain('5');
    const roots = await m.callTool('everything', 'get-roots-list', {});
    expect(JSON.stringify(roots.content)).toContain(REPO.replace(/\/$/, ''));
    const prompt = m.state('everything')!.prompts[0]!;
    const args = Object.fromEntries((prompt.arguments ?? []).filter((a) => a.required).map((a) => [a.name, 'x']));
    const got = await m.getPrompt('everything', prompt.name, args);
    expect(got.messages.length).toBeGreaterThan(0);
    const res = m.state('everything')!.resources[0]!;
    const read = await m.readResource('everything', res.uri);
    expect(read.contents.length).toBeGreaterThan(0);
    const updated = new Promise<[string, string]>((r) =>
      m.once('resource_updated', (a: string, u: string) => r([a, u])),
    );
    await m.subscribeResource('everything', res.uri);
    await m.callTool('everything', 'toggle-subscriber-updates', {});
    expect(await updated).toEqual(['everything', res.uri]);
  });

  it('server-everything over Streamable HTTP', async () => {
    const port = await everythingOver('streamableHttp');
    const m = await started([
      {
        alias: 'remote',
        builtIn: false,
        trust: false,
        transport: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { 'X-Test': '1' },
        timeoutMs: 60_000,
      },
    ]);
    checkEverything(m, 'remote');
    expect(textOf(await m.callTool('remote', 'echo', { message: 'over http' }))).toContain('over http');
  });

  it('server-everything over SSE, explicitly and through the auto fallback', async () => {
    const port = await everythingOver('sse');
    const url = `http://127.0.0.1:${port}/sse`;
    const m = await started([
      { alias: 'sse', builtIn: false, trust: false, transport: 'sse', url, timeoutMs: 60_000 },
      { alias: 'auto', builtIn: false, trust: false, transport: 'auto', url, timeoutMs: 60_000 },
    ]);
    checkEverything(m, 'sse');
    checkEverything(m, 'auto');
    expect(m.state('auto')!.connectedVia).toBe('sse');
    expect(textOf(await m.callTool('auto', 'echo', { message: 'fell back' }))).toContain('fell back');
  });

  it('auto picks Streamable HTTP when the server speaks it', async () => {
    const port = await everythingOver('streamableHttp');
    const m = await started([
      {
        alias: 'auto',
        builtIn: false,
        trust: false,
        transport: 'auto',
        url: `http://127.0.0.1:${port}/mcp`,
        timeoutMs: 60_000,
      },
    ]);
    checkEverything(m, 'auto');
    expect(m.state('auto')!.connectedVia).toBe('http');
  });

  it('sends configured headers on both auto attempts and reports the failure', async () => {
    const seen: string[] = [];
    const srv = createHttpServer((req, res) => {
      seen.push(`${req.method} ${req.headers['x-api-key']}`);
      res.writeHead(404).end('nope');
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    try {
      const m = new McpClientManager({
        servers: [
          {
            alias: 'h',
            builtIn: false,
            trust: false,
            transport: 'auto',
            url: `http://127.0.0.1:${port}/mcp`,
            headers: { 'X-Api-Key': 'k-1' },
            timeoutMs: 1000,
          },
        ],
        roots: [REPO],
      });
      managers.push(m);
      await m.whenSettled();
      expect(m.state('h')!.status).toBe('failed');
      expect(m.state('h')!.error).toMatch(/404|SSE/);
      expect(seen).toEqual(expect.arrayContaining(['POST k-1', 'GET k-1']));
    } finally {
      srv.close();
    }
  });

  it('server-filesystem takes its directories from our roots', async () => {
    const a = tempDir();
    writeFileSync(join(a, 'note.txt'), 'hello from a');
    const m = await started([stdio('fs', [join(PKG, 'server-filesystem/dist/index.js'), REPO])], [a]);
    const allowed = textOf(await m.callTool('fs', 'list_allowed_directories', {}));
    await expect.poll(async () => textOf(await m.callTool('fs', 'list_allowed_directories', {}))).toContain(a);
    expect(allowed).toBeTruthy();
    expect(textOf(await m.callTool('fs', 'read_text_file', { path: join(a, 'note.txt') }))).toBe('hello from a');
  });

  it('server-memory stores and reads entities', async () => {
    const dir = tempDir();
    const m = await started([
      stdio('mem', [join(PKG, 'server-memory/dist/index.js')], { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
    ]);
    await m.callTool('mem', 'create_entities', {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote notes'] }],
    });
    expect(textOf(await m.callTool('mem', 'read_graph', {}))).toContain('Ada');
  });
});
