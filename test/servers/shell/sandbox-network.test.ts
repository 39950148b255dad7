import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { join } from 'node:path';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, textOf, type StdioServer } from '../../helpers/mcp.js';
import { tempDir } from '../../helpers/tmp.js';
import { hostAllowed, resolvedAllowed } from '../../../protocol/sandbox/net-proxy.js';

const hasTools = spawnSync('bwrap', ['--version']).status === 0 && spawnSync('socat', ['-V']).status === 0;

describe('network allow-list entries', () => {
  it('matches hosts, subdomain wildcards and ports', () => {
    expect(hostAllowed(['registry.npmjs.org'], 'registry.npmjs.org', 443)).toBe(true);
    expect(hostAllowed(['registry.npmjs.org'], 'evil.npmjs.org', 443)).toBe(false);
    expect(hostAllowed(['*.github.com'], 'api.github.com', 443)).toBe(true);
    expect(hostAllowed(['*.github.com'], 'github.com', 443)).toBe(false);
    expect(hostAllowed(['.github.com'], 'github.com', 443)).toBe(true);
    expect(hostAllowed(['*.github.com'], 'evilgithub.com', 443)).toBe(false);
    expect(hostAllowed(['127.0.0.1:8080'], '127.0.0.1', 8081)).toBe(false);
    expect(hostAllowed(['127.0.0.1:8080'], '127.0.0.1', 8080)).toBe(true);
    expect(hostAllowed(['[::1]:80'], '::1', 80)).toBe(true);
    expect(hostAllowed(['[::1]'], '::1', 443)).toBe(true);
    expect(hostAllowed(['fd00::1'], 'fd00::1', 443)).toBe(true);
    expect(hostAllowed(['fd00::1'], 'fd00::', 1)).toBe(false);
  });

  it('refuses an allowed name that resolves to a loopback, private or link-local address', () => {
    const list = ['*.example.com'];
    expect(resolvedAllowed(list, 'a.example.com', '93.184.216.34')).toBe(true);
    for (const inner of [
      '127.0.0.1',
      '10.0.0.5',
      '192.168.1.1',
      '169.254.169.254',
      '::1',
      '::ffff:127.0.0.1',
      'fd00::1',
    ]) {
      expect(resolvedAllowed(list, 'a.example.com', inner)).toBe(false);
    }
    expect(resolvedAllowed(['a.example.com', '10.0.0.5'], 'a.example.com', '10.0.0.5')).toBe(true);
    expect(resolvedAllowed(['a.example.com', 'fd00::1'], 'a.example.com', 'fd00::1')).toBe(true);
    expect(resolvedAllowed(['localhost:8080'], 'localhost', '127.0.0.1')).toBe(true);
  });
});

/** Two local HTTP servers: one on the allow-list, one not; effects are counted outside. */
describe.skipIf(!hasTools)('sandboxed shell with --sandbox-allow-net', () => {
  const base = tempDir('sbxnet-');
  const ws = join(base, 'ws');
  const hits = { allowed: 0, denied: 0, socket: 0 };
  const seen: { host?: string; connection?: string; url?: string }[] = [];
  let allowed: HttpServer;
  let denied: HttpServer;
  let sock: NetServer;
  let srv: StdioServer;
  const port = (s: HttpServer) => (s.address() as { port: number }).port;
  const run = async (command: string) => textOf(await srv.call('run_shell_command', { command }));

  beforeAll(async () => {
    mkdirSync(ws);
    allowed = createHttpServer((q, r) => {
      hits.allowed++;
      seen.push({ host: q.headers.host, connection: q.headers.connection, url: q.url });
      r.end('allowed-body');
    });
    denied = createHttpServer((_q, r) => {
      hits.denied++;
      r.end('denied-body');
    });
    sock = createNetServer((c) => {
      hits.socket++;
      c.end('service');
    });
    await Promise.all([
      new Promise<void>((r) => allowed.listen(0, '127.0.0.1', r)),
      new Promise<void>((r) => denied.listen(0, '127.0.0.1', r)),
      new Promise<void>((r) => sock.listen(join(base, 'service.sock'), r)),
    ]);
    srv = await startStdioServer(ENTRY.shell, {
      args: ['--root', ws, '--sandbox', '--sandbox-allow-net', `127.0.0.1:${port(allowed)},localhost:${port(allowed)}`],
    });
  });
  afterAll(async () => {
    await srv?.close();
    allowed?.close();
    denied?.close();
    sock?.close();
  });

  it('reaches an allowed host through the proxy, and nothing else', async () => {
    const out = await run(
      `curl -s -m 5 http://127.0.0.1:${port(allowed)}/; echo; curl -s -m 5 http://localhost:${port(allowed)}/; echo; ` +
        `curl -s -m 5 http://127.0.0.1:${port(denied)}/; echo; ` +
        `curl -s -m 5 --noproxy '*' http://127.0.0.1:${port(denied)}/; echo direct=$?; ` +
        `(printf 'GET / HTTP/1.0\\r\\n\\r\\n' > /dev/tcp/127.0.0.1/${port(denied)}) 2>/dev/null; echo tcp=$?`,
    );
    expect(out).toContain('allowed-body');
    expect(out).toContain('is not allowed');
    expect(out).not.toContain('denied-body');
    expect(hits.allowed).toBe(2);
    expect(hits.denied).toBe(0);
  });

  it('plain HTTP: the server is told the checked host, and one request per connection', async () => {
    const before = hits.allowed;
    seen.length = 0;
    const p = port(allowed);
    // Through the bridge by hand: a forged Host (another virtual host on the allowed address), keep-alive,
    // and a second request pipelined behind the first.
    const req =
      `GET http://127.0.0.1:${p}/one HTTP/1.1\r\nHost: internal.evil\r\nConnection: keep-alive, X-Drop\r\n` +
      'Keep-Alive: timeout=60\r\nX-Drop: 1\r\n\r\nGET /two HTTP/1.1\r\nHost: internal.evil\r\n\r\n';
    writeFileSync(
      join(ws, 'pipeline.js'),
      `const c = require('net').connect(3128, '127.0.0.1', () => c.write(${JSON.stringify(req)}));\n` +
        "c.on('data', (d) => process.stdout.write(d)); setTimeout(() => c.destroy(), 1500);\n",
    );
    const out = await run('node pipeline.js');
    expect(hits.allowed - before, out).toBe(1);
    expect(seen).toEqual([{ host: `127.0.0.1:${p}`, connection: 'close', url: '/one' }]);
  });

  it('outside unix sockets stay unreachable although the bridge needs unix sockets', async () => {
    const out = await run(
      `node -e "require('net').connect('${join(base, 'service.sock')}').on('data',d=>console.log(String(d))).on('error',e=>console.log(e.code))"`,
    );
    expect(out).not.toContain('service');
    expect(hits.socket).toBe(0);
  });
});
