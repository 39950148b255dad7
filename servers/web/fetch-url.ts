import { looksBinary } from '../common/binary-sniff.js';
import { withDeadline } from '../common/deadline.js';
import type { LookupFunction } from 'node:net';
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { Readable } from 'node:stream';
import { proxyConfigured } from '../../protocol/proxy-env.js';
import { isBlockedAddress, isPrivateHost, isPrivateLiteral } from './host-policy.js';
import { proxiedGet, type PageResponse } from './proxied-get.js';

export const USER_AGENT =
  'Mozilla/5.0 (compatible; Google-Gemini-CLI/1.0; +https://github.com/google-gemini/gemini-cli)';
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 10;
const HEADERS = {
  'user-agent': USER_AGENT,
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8',
  'accept-encoding': 'gzip, deflate, br',
};
const RETRYABLE_CODES = ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN'];
const RETRIES = 2;

export interface FetchOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Whether a private host may be reached (`--allow-private-hosts`, or an allowed host). */
  allowPrivate: (url: URL) => boolean;
}

export interface FetchedText {
  url: string;
  text: string;
  /** Set when the body was cut at the 10 MB cap. */
  bodyTruncated: boolean;
}

export class FetchError extends Error {
  constructor(
    message: string,
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** Fetches a URL as text: redirects followed by hand (each hop re-checked), retries with backoff. */
export async function fetchAsText(href: string, opts: FetchOptions): Promise<FetchedText> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(href, opts);
    } catch (err) {
      if (!(err instanceof FetchError) || !err.retryable || attempt >= RETRIES || opts.signal.aborted) throw err;
      await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
    }
  }
}

function fetchOnce(href: string, opts: FetchOptions): Promise<FetchedText> {
  return withDeadline(opts.signal, opts.timeoutMs, (deadline) => fetchWithin(href, opts, deadline));
}

async function fetchWithin(href: string, opts: FetchOptions, deadline: AbortSignal): Promise<FetchedText> {
  let url = new URL(href);
  for (let hop = 0; ; hop++) {
    const res = await send(url, opts, deadline);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (status >= 300 && status < 400 && location) {
      res.destroy();
      if (hop >= MAX_REDIRECTS) throw new FetchError(`Too many redirects (more than ${MAX_REDIRECTS})`);
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new FetchError(`Redirect to an unsupported protocol: ${next.href}`);
      }
      url = next;
      continue;
    }
    if (status < 200 || status >= 300) {
      res.destroy();
      throw new FetchError(
        `Request failed with status code ${status} ${res.statusMessage ?? ''}`.trimEnd(),
        status === 429 || status >= 500,
      );
    }
    return readText(url, res, deadline, opts);
  }
}

/**
 * One request; the connection may only reach addresses that pass the private-host rule. A literal
 * address is never looked up, so it is checked here; a name is checked by the connection's own
 * lookup, which resolves it once.
 */
async function send(url: URL, opts: FetchOptions, signal: AbortSignal): Promise<PageResponse> {
  if (proxyConfigured()) return sendViaProxy(url, opts, signal);
  let lookupFn: LookupFunction | undefined;
  if (!opts.allowPrivate(url)) {
    if (isPrivateLiteral(url.hostname))
      throw new FetchError(`Blocked host (private or local network address): ${url.host}`);
    lookupFn = checkedLookup;
  }
  // http, https (with tls) and zlib are loaded on the first fetch: together they cost the server's
  // startup ~25 ms, and most sessions never fetch a page.
  const { request } = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<PageResponse>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        signal,
        ...(lookupFn ? { lookup: lookupFn } : {}),
        headers: HEADERS,
      },
      resolve,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (signal.aborted) reject(abortError(opts));
      else reject(new FetchError(err.message, RETRYABLE_CODES.includes(err.code ?? '')));
    });
    req.end();
  });
}

/**
 * A request through the proxy the environment names. The proxy resolves the name and connects, so the
 * private-host rule is checked here first: on the literal, and on the name's addresses as this machine
 * resolves it (a name only the proxy can resolve is left to the proxy).
 */
async function sendViaProxy(url: URL, opts: FetchOptions, signal: AbortSignal): Promise<PageResponse> {
  if (!opts.allowPrivate(url) && (await isPrivateHost(url.hostname)))
    throw new FetchError(`Blocked host (private or local network address): ${url.host}`);
  try {
    return await proxiedGet(url, HEADERS, signal);
  } catch (err) {
    if (signal.aborted) throw abortError(opts);
    const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
    const code = e.code ?? e.cause?.code ?? '';
    throw new FetchError(`${e.message} (through the proxy)`, RETRYABLE_CODES.includes(code));
  }
}

/**
 * The connection's DNS lookup refuses private answers: the addresses checked are the ones the socket
 * connects to, so a name cannot resolve publicly for a check and privately for the connection
 * (DNS rebinding).
 */
const checkedLookup = ((host: string, options: LookupOptions, cb: (...args: unknown[]) => void) => {
  dnsLookup(host, { ...options, all: true }, (err, addresses) => {
    if (err) return cb(err);
    const list = addresses as LookupAddress[];
    if (list.some((a) => isBlockedAddress(a.address))) {
      const denied = Object.assign(new Error(`Blocked host (private or local network address): ${host}`), {
        code: 'EBLOCKEDHOST',
      });
      return cb(denied);
    }
    if (options?.all) cb(null, list);
    else cb(null, list[0].address, list[0].family);
  });
}) as unknown as LookupFunction;

/** Why the request's deadline signal fired: the call was cancelled, or else its time ran out. */
function abortError(opts: FetchOptions): Error {
  if (opts.signal.aborted) return new FetchError('Request cancelled');
  return new FetchError(`Request timed out after ${opts.timeoutMs} ms`);
}

const BINARY_TYPE =
  /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-tar|x-7z|vnd\.|msword|wasm)/;

async function readText(url: URL, res: PageResponse, signal: AbortSignal, opts: FetchOptions): Promise<FetchedText> {
  const type = String(res.headers['content-type'] ?? '').toLowerCase();
  const mime = type.split(';')[0].trim();
  if (BINARY_TYPE.test(mime)) {
    res.destroy();
    throw new FetchError(`Binary content (${mime}) cannot be processed as text`);
  }
  const { body, truncated } = await readBody(res, signal, opts);
  if (looksBinary(body)) throw new FetchError(`Binary content (${mime || 'unknown type'}) cannot be processed as text`);
  const charset = /charset=["']?([^;"'\s]+)/.exec(type)?.[1];
  let decoded: string;
  try {
    decoded = new TextDecoder(charset ?? 'utf-8', { fatal: false }).decode(body);
  } catch {
    decoded = new TextDecoder('utf-8', { fatal: false }).decode(body); // unknown charset label
  }
  const isHtml = !mime || mime === 'text/html' || mime === 'application/xhtml+xml';
  // Loaded on first use, like the model SDK, to keep server start-up light.
  const text = isHtml
    ? (await import('html-to-text')).convert(decoded, {
        wordwrap: false,
        selectors: [
          { selector: 'a', options: { ignoreHref: true } },
          { selector: 'img', format: 'skip' },
        ],
      })
    : decoded;
  return { url: url.href, text, bodyTruncated: truncated };
}

/** The (decompressed) body, stopping at the 10 MB cap instead of failing. */
async function readBody(
  res: PageResponse,
  signal: AbortSignal,
  opts: FetchOptions,
): Promise<{ body: Buffer; truncated: boolean }> {
  const encoding = String(res.headers['content-encoding'] ?? '')
    .toLowerCase()
    .trim();
  let stream: Readable = res;
  if (['gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) {
    // The response stays paused (buffered) until piped, so the await loses nothing.
    const zlib = await import('node:zlib');
    if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
    else if (encoding === 'br') stream = res.pipe(zlib.createBrotliDecompress());
    else stream = res.pipe(zlib.createGunzip());
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (size + chunk.length >= MAX_BODY_BYTES) {
        chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
        res.destroy();
        return { body: Buffer.concat(chunks), truncated: true };
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } catch (err) {
    if (signal.aborted) throw abortError(opts);
    throw new FetchError(`Reading the response failed: ${(err as Error).message}`, true);
  }
  return { body: Buffer.concat(chunks), truncated: false };
}
