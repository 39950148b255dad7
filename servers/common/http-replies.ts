import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_MESSAGE_BYTES } from './message-limit.js';

/** Reading a JSON-RPC body and the HTTP error answers the Streamable HTTP endpoint gives. */

export const TOO_LARGE = Symbol('too large');

/** The body as JSON; over the size limit the rest is read and dropped so the client still gets the answer. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_MESSAGE_BYTES) chunks.push(chunk as Buffer);
  }
  if (size > MAX_MESSAGE_BYTES) return TOO_LARGE;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * No `Connection: close`: behind HAProxy, which retries this 503 on another replica, it made HAProxy
 * close the client's connection after the retried answer, and a client sending its next request on that
 * connection got a socket error (a failed call) instead of an answer.
 */
export function sendDraining(res: ServerResponse): void {
  res.setHeader('Retry-After', '1');
  sendJsonError(res, 503, -32000, 'Service unavailable: this server is shutting down; connect again');
}

export function sendTooLarge(res: ServerResponse): void {
  sendJsonError(res, 413, -32600, `Request too large: a message may have at most ${MAX_MESSAGE_BYTES} bytes`);
}

export function sendJsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
