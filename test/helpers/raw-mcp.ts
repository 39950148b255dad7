import { request as httpRequest } from 'node:http';

/**
 * Streamable HTTP spoken by hand, for tests that need what the SDK client hides: the session id and
 * replica headers, the SSE event ids, a stream cut at a chosen event and resumed with Last-Event-ID.
 */
export interface SseEvent {
  id?: string;
  data: string;
}

export const PROTOCOL = '2025-11-25';

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface RawSession {
  url: string;
  sessionId: string;
  replicaId: string | null;
  headers: Record<string, string>;
}

/** initialize + notifications/initialized; the session's headers for the requests after it. */
export async function openRawSession(
  url: string,
  extraHeaders: Record<string, string> = {},
  capabilities: Record<string, unknown> = {},
): Promise<RawSession> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...extraHeaders },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  if (!res.ok) throw new Error(`initialize: HTTP ${res.status} ${await res.text()}`);
  await res.text();
  const sessionId = res.headers.get('mcp-session-id');
  if (!sessionId) throw new Error('initialize: no Mcp-Session-Id');
  const headers = { ...JSON_HEADERS, ...extraHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL };
  const note = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  if (note.status !== 202) throw new Error(`initialized: HTTP ${note.status}`);
  return { url, sessionId, replicaId: res.headers.get('mcp-replica-id'), headers };
}

/** Reads SSE events from a response body one at a time; `cancel` cuts the connection. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(res: Response) {
    if (!res.body) throw new Error(`no body (HTTP ${res.status})`);
    this.reader = res.body.getReader();
  }

  /** The next event, or undefined when the stream ended. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event: SseEvent = { data: '' };
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) event.id = line.slice(3).trim();
          else if (line.startsWith('data:')) event.data += line.slice(5).trim();
        }
        return event;
      }
      const { value, done } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

/** A request on the session; its response stream. */
export async function postRequest(s: RawSession, message: unknown): Promise<Response> {
  return fetch(s.url, { method: 'POST', headers: s.headers, body: JSON.stringify(message) });
}

/** Resumes a cut stream: GET with Last-Event-ID. */
export async function resumeStream(s: RawSession, lastEventId: string): Promise<Response> {
  const { 'content-type': _ct, ...headers } = s.headers;
  return fetch(s.url, {
    method: 'GET',
    headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId },
  });
}

/**
 * A POST straight at a server's port with a chosen Host header (fetch will not send one of our choosing),
 * as a load balancer forwards a client's request or a DNS-rebinding page sends it: the HTTP status.
 */
export function postWithHost(
  port: number,
  host: string,
  message: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers = { ...JSON_HEADERS, ...extraHeaders, host };
    const req = httpRequest({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end(JSON.stringify(message));
  });
}
