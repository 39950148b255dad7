import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { lazyRequire } from '../../protocol/lazy-require.js';

/** What a page fetch reads of a response: node:http's IncomingMessage is one, undici's body is made one. */
export type PageResponse = Readable & { statusCode?: number; statusMessage?: string; headers: IncomingHttpHeaders };

/**
 * One GET through the proxy the environment names (protocol/proxy-env.ts set it as undici's global
 * dispatcher, NO_PROXY included), redirects left to the caller. The proxy connects to the host, so the
 * caller checks the host before (a private literal, or a name that resolves privately here).
 */
export async function proxiedGet(
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<PageResponse> {
  const { request } = lazyRequire('undici') as typeof import('undici');
  const res = await request(url, { method: 'GET', headers, signal });
  return Object.assign(res.body, { statusCode: res.statusCode, statusMessage: '', headers: res.headers });
}
