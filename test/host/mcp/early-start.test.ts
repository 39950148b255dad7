import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startNow } from '../../../host/mcp/early-start.js';
import { McpClientManager } from '../../../host/mcp/client-manager.js';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { REPO } from '../../helpers/paths.js';

const clients: Client[] = [];
const managers: McpClientManager[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(managers.splice(0).map((m) => m.close()));
});

/** A stdio transport for `node -e <code>`, started now; the client is built later, as the host does. */
function startedNode(code: string): StdioClientTransport {
  const t = new StdioClientTransport({ command: process.execPath, args: ['-e', code], stderr: 'pipe' });
  startNow(t);
  return t;
}

/**
 * Resolves when the transport reports `event` while no client listens yet: startNow's handler is wrapped,
 * so the report is still held for the client (the client later chains its own handler in front).
 */
function reported(t: StdioClientTransport, event: 'onmessage' | 'onclose' | 'onerror'): Promise<void> {
  return new Promise((resolve) => {
    const held = t[event] as (...a: unknown[]) => void;
    t[event] = ((...a: unknown[]) => {
      held(...a);
      resolve();
    }) as never;
  });
}

function client(): Client {
  const c = new Client({ name: 'early-start-test', version: '1' });
  clients.push(c);
  return c;
}

/**
 * A hand-written server: it logs one line on stdout before anybody spoke to it, then answers initialize
 * (echoing its id) and nothing else.
 */
const EARLY_LOGGER = `
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'said before initialize' } }) + '\\n');
let buf = '';
process.stdin.on('data', (d) => {
  buf += d;
  for (let i; (i = buf.indexOf('\\n')) >= 0; buf = buf.slice(i + 1)) {
    const m = JSON.parse(buf.slice(0, i));
    if (m.method === 'initialize')
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { logging: {} }, serverInfo: { name: 'early', version: '1' } } }) + '\\n');
  }
});`;

describe('a stdio server spawned before its client is built (startNow)', () => {
  it('hands what the server said before the client connected to the client, in order', async () => {
    const t = startedNode(EARLY_LOGGER);
    // The child has written its line while nobody listens.
    await reported(t, 'onmessage');
    const c = client();
    const logged: unknown[] = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(n.params.data));
    await c.connect(t, { timeout: 10_000 });
    expect(c.getServerVersion()?.name).toBe('early');
    expect(logged).toEqual(['said before initialize']);
  });

  it('a server that died before the client connected fails the connection at once, not at its timeout', async () => {
    const t = startedNode('process.exit(3)');
    let cleanedUp = false;
    await reported(t, 'onclose');
    const c = client();
    c.onclose = () => {
      cleanedUp = true;
    };
    const t0 = Date.now();
    await expect(c.connect(t, { timeout: 30_000 })).rejects.toThrow(/Not connected|Connection closed/);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(cleanedUp).toBe(true);
  });

  it('a command that cannot be spawned is reported by connect, with no unhandled rejection', async () => {
    const t = new StdioClientTransport({ command: join(REPO, 'no-such-server-here'), args: [], stderr: 'pipe' });
    startNow(t);
    await reported(t, 'onerror');
    await expect(client().connect(t, { timeout: 10_000 })).rejects.toThrow(/ENOENT/);
  });

  it('a close handler set before (a sandbox clean-up) still runs, once, when the server exits', async () => {
    const t = new StdioClientTransport({ command: process.execPath, args: ['-e', EARLY_LOGGER], stderr: 'pipe' });
    let closes = 0;
    t.onclose = () => void closes++;
    startNow(t);
    const c = client();
    await c.connect(t, { timeout: 10_000 });
    expect(c.getServerVersion()?.name).toBe('early');
    // close() resolves once the process has closed; a second report would come within the same turns.
    await c.close();
    await new Promise((r) => setImmediate(r));
    expect(closes).toBe(1);
  });
});

describe('tool output schemas: the host validates none of them, and builds no validator for them', () => {
  const server: ResolvedServerConfig = {
    alias: 'structured',
    builtIn: false,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args: [join(REPO, 'test/fixtures/structured-server.mjs')],
    env: { PATH: process.env.PATH! },
    timeoutMs: 60_000,
  };

  it('lists a server whose output schema cannot be compiled, and passes structured content on as it came', async () => {
    const m = new McpClientManager({ servers: [server], roots: [REPO] });
    managers.push(m);
    m.start();
    await m.whenSettled();
    const state = m.state('structured')!;
    expect(state.status, state.error).toBe('connected');
    expect(state.tools.map((t) => t.name)).toEqual(['weather', 'broken_weather', 'odd_schema']);
    const ok = await m.callTool('structured', 'weather', {});
    expect(ok.structuredContent).toEqual({ celsius: 21, sky: 'clear' });
    // An ordinary (bad) result for the model to see, not a protocol failure (host/mcp/tool-call.ts).
    const bad = await m.callTool('structured', 'broken_weather', {});
    expect(bad.structuredContent).toEqual({ celsius: 'warm', sky: 'clear' });
  });
});
