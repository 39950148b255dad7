import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface ProxyHit {
  /** `CONNECT` for a tunnel, else the method of a request in absolute form. */
  method: string;
  /** `host:port` the client asked to reach. */
  target: string;
}

export interface LoggingProxy {
  url: string;
  hits: ProxyHit[];
  /** Whether any request went to this `host:port`. */
  reached(target: string): boolean;
  close(): Promise<void>;
}

/** Only this machine is ever a target: the proxy refuses to connect anywhere else. */
const LOCAL = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * A real HTTP proxy on 127.0.0.1 that logs what passes through it: CONNECT tunnels (what undici and
 * https-proxy-agent use, for http:// targets too) and plain requests in absolute form (`GET http://…`).
 */
export async function startLoggingProxy(): Promise<LoggingProxy> {
  const hits: ProxyHit[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/');
    hits.push({ method: req.method ?? 'GET', target: url.host });
    if (!LOCAL.has(url.hostname)) return void res.writeHead(403).end('only local targets');
    const upstream = request(url, { method: req.method, headers: req.headers }, (up: IncomingMessage) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    hits.push({ method: 'CONNECT', target });
    const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
    if (!LOCAL.has(host)) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const up = connect(port, host === '[::1]' ? '::1' : host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    reached: (target) => hits.some((h) => h.target === target),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
