import { channel } from 'node:diagnostics_channel';
import * as http from 'node:http';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { lazyRequire } from '../../protocol/lazy-require.js';
import { LightHeaders, LightResponse, headerPairs } from '../../protocol/light-web.js';
import { useProxyFromEnv } from '../../protocol/proxy-env.js';

/** The diagnostics channel a model request's written body is announced on (after-request-sent.ts). */
export const MODEL_REQUEST_SENT = 'gemini-mcp:model-request:sent';

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * The fetch the model client sends its requests with: node:http(s) with keep-alive instead of Node's
 * built-in fetch, whose first use loads undici and ~30 more built-ins (~55 ms of CPU on 2 shared cores,
 * a sixth of a short headless run). It speaks what @google/genai asks of fetch: a string body, headers,
 * an abort signal, and a response read as JSON or as a stream. Errors look like fetch's, which the retry
 * rules read (host/core/retry.ts): "fetch failed" with the network error as `cause`, "terminated" for a
 * body cut short, the signal's reason on abort. Anything else (a Blob upload, another scheme) goes to the
 * global fetch. With a proxy named in the environment every request goes to the global fetch, which then
 * goes through the proxy (protocol/proxy-env.ts); undici is loaded for the proxy anyway.
 */
export function createModelFetch(): FetchLike {
  if (useProxyFromEnv()) return (input, init) => fetch(input, init);
  const clients = new Map<string, HttpClient>();
  const clientFor = (protocol: 'http:' | 'https:'): HttpClient => {
    let c = clients.get(protocol);
    if (!c) {
      // https (and tls) load with the first request that needs them.
      const lib = protocol === 'http:' ? http : (lazyRequire('node:https') as typeof import('node:https'));
      c = { request: lib.request, agent: new lib.Agent({ keepAlive: true }) };
      clients.set(protocol, c);
    }
    return c;
  };
  return (input, init = {}) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const body = init.body;
    const plain = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
    if (!plain || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fetch(input, init);
    return send(url, { ...init, body: body ?? undefined }, clientFor(url.protocol)) as unknown as Promise<Response>;
  };
}

interface HttpClient {
  request: typeof http.request;
  agent: http.Agent;
}

function send(
  url: URL,
  init: RequestInit & { body?: string | Uint8Array },
  client: HttpClient,
): Promise<LightResponse> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const headers = Object.fromEntries(headerPairs(init.headers));
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
  const options = { method: init.method ?? 'GET', headers, agent: client.agent };
  const sent = channel(MODEL_REQUEST_SENT);
  return new Promise((resolve, reject) => {
    let res: IncomingMessage | undefined;
    const req: ClientRequest = client.request(url, options);
    const onAbort = (): void => {
      reject(signal!.reason);
      req.destroy();
      res?.destroy();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    // After an abort, any read of the body fails with the abort's reason, as fetch's does.
    const fail = (e: unknown): unknown => (signal?.aborted ? signal.reason : new TypeError('terminated', { cause: e }));
    req.on('error', (err) => {
      done();
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: err }));
    });
    req.on('response', (message) => {
      res = message;
      message.once('close', done);
      const status = message.statusCode ?? 0;
      resolve(
        new LightResponse(message, { status, statusText: message.statusMessage, headers: toHeaders(message) }, fail),
      );
    });
    // The head goes out on its own: handed the body with it, http joins them into one string, a copy of
    // the whole body (the history, resent every turn) that was most of a long session's garbage.
    if (init.body !== undefined) req.flushHeaders();
    req.end(init.body, () => {
      if (sent.hasSubscribers) sent.publish(url.href);
    });
  });
}

function toHeaders(message: IncomingMessage): LightHeaders {
  const h = new LightHeaders();
  for (const [k, v] of Object.entries(message.headers)) {
    if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
  }
  return h;
}
