import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;
type Id = string | number;

/** What a request whose answer can no longer come fails with; "Connection closed" marks a lost connection. */
export const SERVER_GONE = 'Connection closed: the server went away before it answered (its response stream ended)';

/**
 * How long after a response stream ends its requests are checked: the SDK reads the stream's last events
 * through a chain of web streams, so an answer that was in them reaches the client a moment after the
 * end is seen here. Far below the seconds a user would notice, far above that chain's microtasks.
 */
const SETTLE_MS = 100;

/**
 * Fails the requests a remote server can no longer answer. The MCP SDK's HTTP transports leave a request
 * pending when the stream that would carry its answer ends without it (the server was killed, the
 * network cut): it then waits for its timeout, ten minutes by default. This sits in the transport's
 * fetch and sees each stream end:
 * - Streamable HTTP answers a POST on that POST's own event stream. When it ends with requests of the POST
 *   unanswered, they fail at once, unless the stream was resumable (it carried event ids): then the SDK
 *   asks to resume it (a GET with Last-Event-ID), and they fail when that is refused (405; or 404, the
 *   session is gone, e.g. its replica died behind a load balancer) or has failed as often as the SDK
 *   tries; a resumed stream is watched in turn.
 * - SSE answers everything on its one GET stream, and a new stream is a new session: when it ends, every
 *   pending request fails.
 * A failed request gets a JSON-RPC error with code ConnectionClosed, handed to the client as if the server
 * had sent it, so the call ends as a lost connection (and is retried once where that is safe).
 */
export class AnswerWatch {
  private readonly pending = new Set<Id>();
  private readonly resuming = new Map<string, { ids: Id[]; failures: number }>();
  private deliver: (message: JSONRPCMessage) => void = () => undefined;
  private closed = false;

  constructor(
    private readonly kind: 'http' | 'sse',
    /** How many times the SDK tries to resume a stream (its reconnection `maxRetries`). */
    private readonly resumeTries: number,
    private readonly baseFetch: FetchLike = (url, init) => fetch(url, init),
  ) {}

  /** The fetch to give the transport. */
  readonly fetch: FetchLike = async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const ids = method === 'POST' ? requestIds(init?.body) : [];
    for (const id of ids) this.pending.add(id);
    const resumeFrom = method === 'GET' ? (new Headers(init?.headers).get('last-event-id') ?? undefined) : undefined;
    let res: Response;
    try {
      res = await this.baseFetch(url, init);
    } catch (err) {
      // The SDK fails a request whose POST fails; a resumption that fails is counted.
      for (const id of ids) this.pending.delete(id);
      if (resumeFrom !== undefined) this.resumeFailed(resumeFrom, false);
      throw err;
    }
    const stream = res.ok && res.body && /^text\/event-stream/i.test(res.headers.get('content-type') ?? '');
    // 405: the server cannot resume; 404: it no longer knows the session (the replica that held it is gone).
    if (resumeFrom !== undefined && !stream) this.resumeFailed(resumeFrom, res.status === 405 || res.status === 404);
    if (!stream || !res.body) return res;
    const carried = this.carriedBy(method, ids, resumeFrom);
    if (!carried) return res;
    const body = watchEnd(res.body, (lastEventId) =>
      setTimeout(() => this.ended(carried, lastEventId), SETTLE_MS).unref(),
    );
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  };

  /**
   * Puts the watch between the transport and the client, which sets `onmessage` when it connects: every
   * answer is seen on its way, and a failure can be handed over as an answer.
   */
  attach(transport: Transport): void {
    let handler: Transport['onmessage'];
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: () =>
        handler &&
        ((message: JSONRPCMessage, extra?: unknown) => {
          if (isAnswer(message)) this.pending.delete((message as { id: Id }).id);
          (handler as (m: JSONRPCMessage, e?: unknown) => void)(message, extra);
        }),
      set: (fn: Transport['onmessage']) => {
        handler = fn;
      },
    });
    this.deliver = (message) => handler?.(message);
    // Closing fails every pending request already; a stream that breaks as it closes must not answer again.
    const close = transport.close.bind(transport);
    transport.close = () => {
      this.closed = true;
      return close();
    };
  }

  /** The requests whose answers a stream may carry: `all` for SSE's one stream, none for a side stream. */
  private carriedBy(method: string, ids: Id[], resumeFrom: string | undefined): Id[] | 'all' | undefined {
    if (this.kind === 'sse') return method === 'GET' ? 'all' : undefined;
    if (resumeFrom !== undefined) {
      const entry = this.resuming.get(resumeFrom);
      this.resuming.delete(resumeFrom);
      return entry?.ids;
    }
    return ids.length ? ids : undefined;
  }

  private ended(carried: Id[] | 'all', lastEventId: string | undefined): void {
    const open = (carried === 'all' ? [...this.pending] : carried).filter((id) => this.pending.has(id));
    if (!open.length) return;
    if (this.kind === 'http' && lastEventId !== undefined) this.resuming.set(lastEventId, { ids: open, failures: 0 });
    else this.fail(open);
  }

  private resumeFailed(lastEventId: string, refused: boolean): void {
    const entry = this.resuming.get(lastEventId);
    if (!entry) return;
    entry.failures++;
    if (!refused && entry.failures < this.resumeTries) return;
    this.resuming.delete(lastEventId);
    this.fail(entry.ids);
  }

  private fail(ids: Id[]): void {
    if (this.closed) return;
    for (const id of ids) {
      if (!this.pending.delete(id)) continue;
      this.deliver({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: SERVER_GONE } });
    }
  }
}

/** The ids of the requests (not notifications, not answers) in a POST body. */
function requestIds(body: RequestInit['body']): Id[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed = JSON.parse(body) as unknown;
    const messages = (Array.isArray(parsed) ? parsed : [parsed]) as Array<Record<string, unknown>>;
    return messages
      .filter((m) => m && typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number'))
      .map((m) => m.id as Id);
  } catch {
    return [];
  }
}

function isAnswer(message: JSONRPCMessage): boolean {
  return 'id' in message && !('method' in message) && ('result' in message || 'error' in message);
}

/**
 * The same bytes, with `onEnd` called once when the stream ends or breaks, with the last event id it
 * carried (an `id:` field of the event stream), which is what the SDK resumes from.
 */
function watchEnd(
  source: ReadableStream<Uint8Array>,
  onEnd: (lastEventId: string | undefined) => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  let partial = '';
  let lastEventId: string | undefined;
  const scan = (text: string): void => {
    const lines = (partial + text).split(/\r\n|\r|\n/);
    partial = lines.pop() ?? '';
    for (const line of lines) {
      // An empty id keeps nothing to resume from, for the SDK as here.
      const id = line.startsWith('id:') ? line.slice(3).replace(/^ /, '') : '';
      if (id) lastEventId = id;
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          onEnd(lastEventId);
          return;
        }
        scan(decoder.decode(value, { stream: true }));
        controller.enqueue(value);
      } catch (err) {
        controller.error(err);
        onEnd(lastEventId);
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
