import { lookup } from 'node:dns/promises';
import { rmSync } from 'node:fs';
import { connect, createServer, isIP, type Server, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * The sandbox's only way to the network: an HTTP proxy on a unix socket that the bridge inside the
 * sandbox forwards to. It opens `CONNECT host:port` tunnels and forwards absolute-URL HTTP requests,
 * both only to hosts on the allow-list; anything else gets a 403 and no connection is made.
 */

/** An allow-list entry: `host[:port]`, `[v6][:port]`, or a bare IPv6 address (no port then). */
function parseEntry(raw: string): { host: string; port?: number } {
  const e = raw.trim().toLowerCase();
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(e);
  if (v6) return { host: v6[1], ...(v6[2] ? { port: Number(v6[2]) } : {}) };
  if (isIP(e) === 6) return { host: e };
  const m = /^([^:]*):(\d+)$/.exec(e);
  return m ? { host: m[1], port: Number(m[2]) } : { host: e };
}

/** `host`, `*.host` (any subdomain, not the host itself) or `.host` (both); an optional `:port`. */
export function hostAllowed(allow: readonly string[], host: string, port: number): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return allow.some((raw) => {
    const { host: pattern, port: p } = parseEntry(raw);
    if (p !== undefined && p !== port) return false;
    if (pattern.startsWith('*.')) return h.endsWith(pattern.slice(1));
    if (pattern.startsWith('.')) return h === pattern.slice(1) || h.endsWith(pattern);
    return h === pattern;
  });
}

/**
 * Whoever controls an allowed name's DNS controls where it points: a name that resolves to a loopback,
 * private or link-local address is refused unless the list names that address itself (or the name is
 * `localhost`). The checked address is the one dialled; there is no second lookup.
 */
export function resolvedAllowed(allow: readonly string[], host: string, address: string): boolean {
  if (isIP(host) || host.toLowerCase() === 'localhost') return true;
  let range: string;
  try {
    range = ipaddr.process(address).range();
  } catch {
    return false;
  }
  if (range === 'unicast') return true;
  return allow.some((e) => parseEntry(e).host === address.toLowerCase());
}

export interface NetProxy {
  close(): Promise<void>;
}

const MAX_HEAD = 16 * 1024;

export function startNetProxy(socketPath: string, allow: readonly string[]): Promise<NetProxy> {
  const clients = new Set<Socket>();
  const server: Server = createServer((client) => {
    clients.add(client);
    client.on('close', () => clients.delete(client));
    client.on('error', () => client.destroy());
    readHead(client, (head, rest) => void route(client, head, rest, allow).catch(() => client.destroy()));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () =>
      resolve({
        close: () =>
          new Promise((r) => {
            for (const c of clients) c.destroy();
            server.close(() => {
              rmSync(socketPath, { force: true });
              r();
            });
          }),
      }),
    );
  });
}

function readHead(client: Socket, done: (head: string, rest: Buffer) => void): void {
  let buf = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    buf = Buffer.concat([buf, chunk]);
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) {
      if (buf.length > MAX_HEAD) client.destroy();
      return;
    }
    client.off('data', onData);
    client.pause();
    done(buf.subarray(0, end + 4).toString('latin1'), buf.subarray(end + 4));
  };
  client.on('data', onData);
}

function refuse(client: Socket, status: string, why: string): void {
  client.end(`HTTP/1.1 ${status}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${why}\n`);
}

interface Target {
  host: string;
  port: number;
  /** Plain HTTP: the request head to send upstream (origin-form); absent for CONNECT. */
  forwardHead?: string;
}

/** Where a request wants to go, or the status line and reason to refuse it with. */
function parseTarget(head: string): Target | { status: string; why: string } {
  const [line, ...headers] = head.split('\r\n');
  const [method, target, version] = line.split(' ');
  if (method === 'CONNECT') {
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(target ?? '');
    if (!m) return { status: '400 Bad Request', why: 'CONNECT needs host:port' };
    return { host: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2]) };
  }
  let url: URL;
  try {
    url = new URL(target ?? '');
  } catch {
    return { status: '400 Bad Request', why: 'the sandbox proxy takes absolute http:// URLs' };
  }
  if (url.protocol !== 'http:') return { status: '400 Bad Request', why: 'only http:// URLs without CONNECT' };
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: Number(url.port || 80),
    forwardHead: `${method} ${url.pathname}${url.search} ${version ?? 'HTTP/1.1'}\r\n${forwardHeaders(headers, url.host)}\r\n`,
  };
}

/**
 * The checked host is the one the server is told (`Host` rewritten: a client's own would reach another
 * virtual host on the same address), and the connection carries that one request (`Connection: close`;
 * the client's `Connection`, `Keep-Alive`, `Proxy-*` and the headers `Connection` names are dropped).
 */
function forwardHeaders(headers: readonly string[], host: string): string {
  const name = (h: string) => h.slice(0, h.indexOf(':')).trim().toLowerCase();
  const hop = new Set(['host', 'connection', 'keep-alive']);
  for (const h of headers)
    if (name(h) === 'connection')
      for (const t of h.slice(h.indexOf(':') + 1).split(',')) hop.add(t.trim().toLowerCase());
  const kept = headers.filter((h) => h.includes(':') && !hop.has(name(h)) && !name(h).startsWith('proxy-'));
  return [`Host: ${host}`, ...kept, 'Connection: close'].map((h) => `${h}\r\n`).join('');
}

async function route(client: Socket, head: string, rest: Buffer, allow: readonly string[]): Promise<void> {
  const t = parseTarget(head);
  if ('status' in t) {
    refuse(client, t.status, t.why);
    return;
  }
  const denied = () => refuse(client, '403 Forbidden', `sandbox: network access to ${t.host}:${t.port} is not allowed`);
  if (!hostAllowed(allow, t.host, t.port)) return denied();
  let address: string;
  try {
    address = isIP(t.host) ? t.host : (await lookup(t.host)).address;
  } catch {
    refuse(client, '502 Bad Gateway', `cannot resolve ${t.host}`);
    return;
  }
  if (!resolvedAllowed(allow, t.host, address)) return denied();
  dial(client, t, address, rest);
}

function dial(client: Socket, t: Target, address: string, rest: Buffer): void {
  const upstream = connect({ host: address, port: t.port }, () => {
    if (t.forwardHead === undefined) client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    else upstream.write(t.forwardHead);
    if (rest.length) upstream.write(rest);
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  });
  upstream.on('error', () => {
    if (upstream.readyState === 'opening') refuse(client, '502 Bad Gateway', `cannot reach ${t.host}`);
    else client.destroy();
  });
  client.on('close', () => upstream.destroy());
}
