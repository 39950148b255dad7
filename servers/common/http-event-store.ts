import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface EventStoreLimits {
  /** Events kept per session; the oldest go first. */
  maxEvents: number;
  /** Bytes of serialized messages kept per session; the oldest go first. */
  maxBytes: number;
}

/** What a session keeps for clients that resume a cut stream: enough for a few seconds of a busy call. */
export const EVENT_STORE_LIMITS: EventStoreLimits = { maxEvents: 1000, maxBytes: 1024 * 1024 };

interface StoredEvent {
  seq: number;
  streamId: StreamId;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * One session's SSE events, so a client whose connection dropped resumes with `Last-Event-ID` and gets
 * what it missed. An event id is `<stream>_<seq>`, the sequence counting up across the session. The
 * store is bounded by count and bytes, oldest first; a resume from before an event of its stream that was
 * dropped is refused (the SDK answers 500) rather than replayed with a gap.
 */
export class SessionEventStore implements EventStore {
  private readonly events: StoredEvent[] = [];
  private head = 0;
  private bytes = 0;
  private seq = 0;
  /** Events held per stream: a stream's entries go when its last event does, so these stay bounded too. */
  private readonly held = new Map<StreamId, number>();
  /** Per stream still held, the sequence number of its newest dropped event. */
  private readonly droppedUpTo = new Map<StreamId, number>();

  constructor(private readonly limits: EventStoreLimits = EVENT_STORE_LIMITS) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.seq;
    const bytes = Buffer.byteLength(JSON.stringify(message));
    this.events.push({ seq, streamId, message, bytes });
    this.held.set(streamId, (this.held.get(streamId) ?? 0) + 1);
    this.bytes += bytes;
    this.trim();
    return `${streamId}_${seq}`;
  }

  /**
   * The stream an id belongs to, if it can be resumed. Deliberately not the SDK's optional
   * `getStreamIdForEventId`: with it, a resume while the server still holds the old connection (a cut
   * it has not noticed yet) is refused with 409; without it the new connection replaces the old one.
   */
  streamOf(eventId: EventId): StreamId | undefined {
    return this.resumable(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const from = this.resumable(lastEventId);
    if (!from) throw new Error(`cannot resume after event ${lastEventId}: unknown, or events after it were dropped`);
    for (let i = this.head; i < this.events.length; i++) {
      const e = this.events[i];
      // Priming events (an empty message) only hand the client a cursor; they are not replayed.
      if (e.seq > from.seq && e.streamId === from.streamId && 'jsonrpc' in e.message)
        await send(`${e.streamId}_${e.seq}`, e.message);
    }
    return from.streamId;
  }

  /** Events held and their bytes (tests and metrics). */
  get size(): { events: number; bytes: number } {
    return { events: this.events.length - this.head, bytes: this.bytes };
  }

  /** The stream and position of an id this store minted and can resume after without a gap. */
  private resumable(eventId: EventId): { streamId: StreamId; seq: number } | undefined {
    const cut = eventId.lastIndexOf('_');
    if (cut <= 0) return undefined;
    const streamId = eventId.slice(0, cut);
    const seq = Number(eventId.slice(cut + 1));
    if (!Number.isSafeInteger(seq) || seq < 1 || seq > this.seq) return undefined;
    const dropped = this.droppedUpTo.get(streamId);
    if (dropped !== undefined && seq < dropped) return undefined;
    const known =
      dropped === seq || this.events.some((e, i) => i >= this.head && e.seq === seq && e.streamId === streamId);
    return known ? { streamId, seq } : undefined;
  }

  private trim(): void {
    // Strict, even for one event over the byte bound: a resume from before it is refused, never gapped.
    while (this.events.length - this.head > this.limits.maxEvents || this.bytes > this.limits.maxBytes) {
      const old = this.events[this.head++];
      this.bytes -= old.bytes;
      const left = (this.held.get(old.streamId) ?? 1) - 1;
      if (left > 0) {
        this.held.set(old.streamId, left);
        this.droppedUpTo.set(old.streamId, old.seq);
      } else {
        // Nothing of the stream is left to resume from.
        this.held.delete(old.streamId);
        this.droppedUpTo.delete(old.streamId);
      }
    }
    // Compact now and then rather than shifting on every drop.
    if (this.head > 1024 && this.head * 2 > this.events.length) {
      this.events.splice(0, this.head);
      this.head = 0;
    }
  }
}
