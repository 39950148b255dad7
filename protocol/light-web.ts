import type { IncomingMessage } from 'node:http';

/**
 * Stand-ins for the web `Headers` and `Response` on the model request path. Node's globals of those
 * names load its whole fetch stack (undici, with http2, tls, zlib, worker_threads and more: ~55 ms of CPU
 * at the first `new Headers()`, Node 20.20 on 2 shared cores) although the model client only builds a
 * header list and reads JSON. The build points @google/genai's request headers and stream chunks at
 * these (scripts/bundle-plugins.mjs, docs/third-party-patches.md); host/core/model-fetch.ts answers
 * with them. They do what the SDK asks of them and no more.
 */
export class LightHeaders implements Iterable<[string, string]> {
  private readonly map = new Map<string, string>();

  constructor(init?: unknown) {
    for (const [k, v] of headerPairs(init)) this.append(k, v);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const had = this.map.get(key);
    this.map.set(key, had === undefined ? String(value) : `${had}, ${value}`);
  }

  set(name: string, value: string): void {
    this.map.set(name.toLowerCase(), String(value));
  }

  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  delete(name: string): void {
    this.map.delete(name.toLowerCase());
  }

  forEach(fn: (value: string, name: string, headers: LightHeaders) => void): void {
    for (const [k, v] of this.map) fn(v, k, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.map.entries();
  }

  keys(): IterableIterator<string> {
    return this.map.keys();
  }

  values(): IterableIterator<string> {
    return this.map.values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.map.entries();
  }
}

/** Name/value pairs of any header init: a Headers-like iterable, an array of pairs or a plain record. */
export function headerPairs(init: unknown): [string, string][] {
  if (init === undefined || init === null) return [];
  if (typeof (init as Iterable<unknown>)[Symbol.iterator] === 'function') {
    return [...(init as Iterable<[string, string]>)].map(([k, v]) => [String(k), String(v)]);
  }
  return Object.entries(init as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]);
}

interface BodyReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  releaseLock(): void;
  cancel(): Promise<void>;
}

export interface LightResponseInit {
  status?: number;
  statusText?: string;
  headers?: unknown;
}

/**
 * A response whose body is a string (a stream chunk the SDK re-wraps) or a live HTTP message (what
 * model-fetch returns). `fail` turns a read error into what fetch would throw (the abort reason, or
 * "terminated").
 */
export class LightResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LightHeaders;
  private used = false;

  constructor(
    private readonly source?: string | IncomingMessage,
    init: LightResponseInit = {},
    private readonly fail: (err: unknown) => unknown = (e) => e,
  ) {
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = init.headers instanceof LightHeaders ? init.headers : new LightHeaders(init.headers);
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get bodyUsed(): boolean {
    return this.used;
  }

  get body(): { getReader(): BodyReader } | null {
    const src = this.source;
    if (src === undefined) return null;
    return { getReader: () => this.reader(src) };
  }

  async text(): Promise<string> {
    const src = this.source;
    this.used = true;
    if (src === undefined || typeof src === 'string') return src ?? '';
    const chunks: Buffer[] = [];
    try {
      for await (const c of src) chunks.push(c as Buffer);
    } catch (e) {
      throw this.fail(e);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  private reader(src: string | IncomingMessage): BodyReader {
    this.used = true;
    if (typeof src === 'string') {
      let sent = false;
      return {
        read: async () => (sent ? { done: true } : ((sent = true), { done: false, value: Buffer.from(src) })),
        releaseLock: () => undefined,
        cancel: async () => undefined,
      };
    }
    const it = src[Symbol.asyncIterator]();
    return {
      read: async () => {
        try {
          const r = await it.next();
          return r.done ? { done: true } : { done: false, value: r.value as Buffer };
        } catch (e) {
          throw this.fail(e);
        }
      },
      releaseLock: () => undefined,
      cancel: async () => {
        src.destroy();
      },
    };
  }
}
