import { createServer, type Server } from 'node:http';
import { type AddressInfo, createConnection } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListenerClose } from '../../../servers/common/http-listener-close.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
});

async function listening(): Promise<{ server: Server; listener: ListenerClose; port: number }> {
  const server = createServer((_req, res) => res.end('ok'));
  const listener = new ListenerClose(server);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { server, listener, port: (server.address() as AddressInfo).port };
}

const GET = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';

/** Sends `count` GETs on one keep-alive connection, the later ones `gapMs` apart, each after the last answer. */
function keepAlive(port: number, count: number, gapMs: number, onAnswer: (n: number) => void): Promise<string[]> {
  return new Promise((resolve) => {
    const answers: string[] = [];
    const socket = createConnection(port, '127.0.0.1', () => socket.write(GET));
    socket.on('data', (d: Buffer) => {
      answers.push(d.toString());
      onAnswer(answers.length);
      if (answers.length < count) setTimeout(() => socket.write(GET), gapMs);
      else socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => answers.push(err.code ?? err.message));
    socket.on('close', () => resolve(answers));
  });
}

/** One request on a fresh connection: what came back, or the error that ended it. */
function request(port: number): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    const socket = createConnection(port, '127.0.0.1', () =>
      socket.write(`${GET.slice(0, -2)}Connection: close\r\n\r\n`),
    );
    socket.on('data', (d: Buffer) => (data += d.toString()));
    socket.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    socket.on('close', () => resolve(data));
  });
}

describe('ListenerClose', () => {
  it('a kept-alive connection whose next request comes just after the close began is still answered; a new connection is refused', async () => {
    const { server, listener, port } = await listening();
    let closed: Promise<void> | undefined;
    // The close begins as the first answer arrives; the second request follows 60 ms later.
    const answers = keepAlive(port, 2, 60, (n) => {
      if (n === 1) closed = listener.close({ quietMs: 0, settleMs: 1000, maxMs: 3000 });
    });
    await vi.waitFor(() => expect(closed !== undefined && !server.listening).toBe(true));
    expect(await request(port)).toBe('ECONNREFUSED');
    const got = await answers;
    expect(got).toHaveLength(2);
    for (const a of got) expect(a).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/);
    await closed;
  });

  it('waits for a quiet spell before it stops accepting, and no longer than maxMs', async () => {
    const { listener, port } = await listening();
    let closedAt = 0;
    const closed = listener.close({ quietMs: 500, settleMs: 0, maxMs: 5000 }).then(() => (closedAt = Date.now()));
    // Traffic: a request every 50 ms for 300 ms (the spacing is the point), each accepted and answered.
    let lastSent = 0;
    for (let i = 0; i < 6; i++) {
      lastSent = Date.now();
      expect(await request(port)).toMatch(/^HTTP\/1\.1 200/);
      await sleep(50);
    }
    await closed;
    // It stopped accepting only once the traffic had been quiet for quietMs (a few ms of timer slack).
    expect(closedAt - lastSent).toBeGreaterThanOrEqual(480);

    const busy = await listening();
    const t1 = Date.now();
    const bounded = busy.listener.close({ quietMs: 10_000, settleMs: 0, maxMs: 300 });
    await bounded;
    expect(Date.now() - t1).toBeLessThan(2000);
    expect(await request(busy.port)).toBe('ECONNREFUSED');
  });
});
