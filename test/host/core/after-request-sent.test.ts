import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { afterNextRequestSent } from '../../../host/core/after-request-sent.js';
import { createModelFetch } from '../../../host/core/model-fetch.js';

let server: Server | undefined;
afterEach(() => server?.close());

/** A server that reads the whole body, then waits `delayMs` before it answers. */
async function slowServer(delayMs: number): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.end('ok'), delayMs));
  });
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  const addr = server.address() as { port: number };
  return `http://127.0.0.1:${addr.port}/`;
}

describe('afterNextRequestSent', () => {
  it('runs once the request body is out, before the answer comes, and only once', async () => {
    const url = await slowServer(300);
    const order: string[] = [];
    let runs = 0;
    afterNextRequestSent(() => {
      runs++;
      order.push('sent');
    });
    const res = await fetch(url, { method: 'POST', body: JSON.stringify({ contents: 'x'.repeat(10_000) }) });
    order.push('answered');
    await res.text();
    await fetch(url, { method: 'POST', body: 'again' }).then((r) => r.text());
    expect(order).toEqual(['sent', 'answered']);
    expect(runs).toBe(1);
  });

  it('hears the model client fetch (node:http) as well', async () => {
    const url = await slowServer(300);
    const order: string[] = [];
    afterNextRequestSent(() => order.push('sent'));
    const res = await createModelFetch()(url, { method: 'POST', body: '{"contents":[]}' });
    order.push('answered');
    await res.text();
    expect(order).toEqual(['sent', 'answered']);
  });

  it('falls back to a timer when no request is made', async () => {
    const ran = await new Promise<boolean>((resolve) => {
      afterNextRequestSent(() => resolve(true), 50);
      setTimeout(() => resolve(false), 2000);
    });
    expect(ran).toBe(true);
  });
});
