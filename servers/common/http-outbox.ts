import type { ServerResponse } from 'node:http';

interface OutboxLimits {
  /** Output one session may hold unsent (in our queue or the socket's buffer) before its new requests wait. */
  maxBufferedBytes: number;
  /** Requests of one session answered at once: an answer counts until it has left the process. */
  maxInFlight: number;
  /** A response whose unsent output has not moved for this long is cut: its reader is not reading. */
  stallMs: number;
}

/** Writes go to the socket in pieces of this size, so a reader's progress is visible and pieces can wait. */
const PIECE_BYTES = 64 * 1024;
const PIECE_CHARS = 32 * 1024;

type Callback = (err?: Error | null) => void;

/**
 * What a session has produced and not yet handed to the network. Without it a client that asks and never
 * reads makes the server hold every answer in memory for as long as the connection lives, and can ask for
 * more. Each response's output goes out piece by piece as the socket drains (backpressure); a session
 * whose unsent output is over the bound gets no new request run until it drains; a response that makes no
 * progress for `stallMs` is cut, which frees what it held. A burst of requests cannot all produce at once
 * either: a session has at most `maxInFlight` answers in the making or on their way out.
 */
export class Outbox {
  private readonly open = new Set<PacedResponse>();
  private waiters: (() => void)[] = [];
  private inFlight = 0;

  constructor(
    private readonly limits: OutboxLimits,
    private readonly onStall: (unsentBytes: number) => void,
  ) {}

  get buffered(): number {
    let total = 0;
    for (const p of this.open) total += p.buffered;
    return total;
  }

  /** Paces this response's writes and counts its unsent output against the session. */
  pace(res: ServerResponse): void {
    const paced = new PacedResponse(res, this.limits.stallMs, () => this.wake(), this.onStall);
    this.open.add(paced);
    res.once('close', () => {
      paced.dispose();
      this.open.delete(paced);
      this.wake();
    });
  }

  /**
   * Resolves true once the session may run another request: fewer than `maxInFlight` of its answers are
   * still being produced or sent, and its unsent output is under the bound. False when the asking
   * response closed first. Bounded: an answer its reader does not take is cut after `stallMs`.
   */
  async admit(res: ServerResponse): Promise<boolean> {
    // One close listener however often the wait is woken and finds the session still full.
    let wakeMe: (() => void) | undefined;
    const onClose = () => wakeMe?.();
    res.once('close', onClose);
    try {
      while (this.full()) {
        if (res.destroyed || res.writableEnded) return false;
        await new Promise<void>((resolve) => {
          wakeMe = resolve;
          this.waiters.push(resolve);
        });
      }
    } finally {
      res.off('close', onClose);
    }
    if (res.destroyed) return false;
    this.inFlight++;
    res.once('close', () => {
      this.inFlight--;
      this.wake();
    });
    return true;
  }

  private full(): boolean {
    return this.inFlight >= this.limits.maxInFlight || this.buffered >= this.limits.maxBufferedBytes;
  }

  private wake(): void {
    if (this.waiters.length === 0 || this.full()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** One response whose `write`/`end` queue their data and hand it to the socket a piece at a time. */
class PacedResponse {
  private readonly queue: { piece: string | Buffer; bytes: number; cb?: Callback }[] = [];
  private queued = 0;
  private ending: { cb?: Callback } | undefined;
  private waitingForDrain = false;
  private readonly stall: NodeJS.Timeout;
  private readonly write: ServerResponse['write'];
  private readonly end: ServerResponse['end'];

  constructor(
    private readonly res: ServerResponse,
    stallMs: number,
    private readonly onProgress: () => void,
    onStall: (unsentBytes: number) => void,
  ) {
    this.write = res.write.bind(res) as ServerResponse['write'];
    this.end = res.end.bind(res) as ServerResponse['end'];
    this.stall = setTimeout(() => {
      if (this.buffered === 0) return;
      onStall(this.buffered);
      res.destroy();
    }, stallMs);
    this.stall.unref();
    res.write = ((chunk: unknown, a?: unknown, b?: unknown) => {
      const cb = (typeof a === 'function' ? a : b) as Callback | undefined;
      const encoding = typeof a === 'string' ? (a as BufferEncoding) : undefined;
      if (res.destroyed) return false;
      // The reader gets stallMs from when it first has something to take; more output does not extend it.
      if (this.buffered === 0) this.stall.refresh();
      this.enqueue(chunk, encoding, cb);
      this.pump();
      return this.queued === 0 && !this.waitingForDrain;
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, a?: unknown, b?: unknown) => {
      if (typeof chunk === 'function') return this.finish(chunk as Callback);
      const cb = (typeof a === 'function' ? a : b) as Callback | undefined;
      const encoding = typeof a === 'string' ? (a as BufferEncoding) : undefined;
      if (this.buffered === 0) this.stall.refresh();
      if (chunk !== undefined && chunk !== null) this.enqueue(chunk, encoding);
      return this.finish(cb);
    }) as ServerResponse['end'];
    res.on('drain', () => {
      // The reader took something: it gets stallMs again.
      this.stall.refresh();
      this.waitingForDrain = false;
      this.pump();
      this.onProgress();
    });
  }

  /** Unsent bytes: still queued here, or accepted by the response but not yet by the kernel. */
  get buffered(): number {
    return this.queued + (this.res.destroyed ? 0 : this.res.writableLength);
  }

  dispose(): void {
    clearTimeout(this.stall);
    this.queue.length = 0;
    this.queued = 0;
  }

  /**
   * Strings are cut into string pieces, not copied into one Buffer first: a reader that does not read then
   * holds the one string the answer already was, not a second, native copy of it.
   */
  private enqueue(chunk: unknown, encoding?: BufferEncoding, cb?: Callback): void {
    const pieces: (string | Buffer)[] = [];
    if (typeof chunk === 'string' && (encoding === undefined || encoding === 'utf8' || encoding === 'utf-8')) {
      for (let at = 0; at < chunk.length; ) {
        let end = Math.min(chunk.length, at + PIECE_CHARS);
        // Never split a surrogate pair: each half alone would be written as U+FFFD.
        const last = chunk.charCodeAt(end - 1);
        if (end < chunk.length && last >= 0xd800 && last <= 0xdbff) end--;
        pieces.push(chunk.slice(at, end));
        at = end;
      }
    } else {
      // A view, not a copy: the Uint8Array chunks the SDK's web streams hand over can be megabytes.
      const u8 = chunk as Uint8Array;
      const data =
        typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
      for (let at = 0; at < data.length; at += PIECE_BYTES) pieces.push(data.subarray(at, at + PIECE_BYTES));
    }
    if (pieces.length === 0) pieces.push('');
    pieces.forEach((piece, i) => {
      const bytes = typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
      this.queue.push({ piece, bytes, cb: i === pieces.length - 1 ? cb : undefined });
      this.queued += bytes;
    });
  }

  private finish(cb?: Callback): ServerResponse {
    this.ending = { cb };
    this.pump();
    return this.res;
  }

  private pump(): void {
    while (!this.waitingForDrain && this.queue.length > 0 && !this.res.destroyed) {
      const { piece, bytes, cb } = this.queue.shift()!;
      this.queued -= bytes;
      if (!this.write(piece, cb as never)) this.waitingForDrain = true;
    }
    if (this.res.destroyed) {
      this.dispose();
      return;
    }
    if (this.queue.length === 0 && this.ending && !this.res.writableEnded) {
      const { cb } = this.ending;
      this.end(cb as never);
    }
  }
}
