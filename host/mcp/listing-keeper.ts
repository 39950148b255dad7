import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import { type CachedListing, fileStamp, type ListingCache, listingKey } from './listing-cache.js';
import type { Slot } from './server-slot.js';
import { resourceText } from './util.js';

/** How long closing waits for a first-time server's connection, so that its listing gets cached. */
const LISTING_FILL_GRACE_MS = 3000;
/** A use is stamped at most this often, so that calls do not rewrite the cache. */
const USE_STAMP_EVERY_MS = 60 * 60 * 1000;
/** A lazy server used this recently starts in the background once the first model request is out... */
const WARM_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** ...and at most this many of them, the most recently used first. */
const MAX_WARM = 3;

type Listing = Omit<CachedListing, 'savedAt'>;

const listingText = (l: Listing): string =>
  JSON.stringify([l.tools, l.prompts, l.resources, l.instructions ?? null, l.usedAt ?? null]);

/**
 * The client manager's use of the listing cache: which servers may stay idle at start, remembering what
 * each server offers whenever it connects or re-lists, and resource texts an idle server need not be
 * started for.
 */
export class ListingKeeper {
  private readonly written = new WeakMap<Slot, string>();
  private readonly usedAt = new WeakMap<Slot, number>();

  private stamps: Map<string, string> | undefined;

  constructor(private readonly cache: ListingCache) {}

  /** fileStamp, remembered until the current synchronous run (a session start's loop) is over. */
  private readonly stampNow = (path: string): string => {
    if (!this.stamps) {
      this.stamps = new Map();
      queueMicrotask(() => (this.stamps = undefined));
    }
    let s = this.stamps.get(path);
    if (s === undefined) this.stamps.set(path, (s = fileStamp(path)));
    return s;
  };

  /**
   * At session start: the cached listing a lazy server is declared from, or undefined when it must start.
   * The servers are prepared in one go, so the files their keys stamp are stat'ed once for all of them
   * (100 servers of one command: 200 stats, most of their keys' cost, before).
   */
  prepare(slot: Slot): CachedListing | undefined {
    slot.cacheKey = listingKey(slot.config, this.stampNow);
    if (slot.config.startup === 'eager') return undefined;
    return this.cache.get(slot.cacheKey);
  }

  /**
   * The idle servers to start before anybody calls them (McpClientManager.warmUp): those a session used
   * within the last week, most recent first, a few at most. A server used every day then starts while
   * the model thinks, instead of on the critical path of its first call; one not used for a week stays
   * idle until it is.
   */
  warmStarts(slots: Iterable<Slot>, now = Date.now()): Slot[] {
    return [...slots]
      .filter((s) => s.status === 'idle' && s.cached?.usedAt !== undefined && now - s.cached.usedAt < WARM_WINDOW_MS)
      .sort((a, b) => b.cached!.usedAt! - a.cached!.usedAt!)
      .slice(0, MAX_WARM);
  }

  /**
   * Writes the live listing at once (a short headless run may exit right after its one call); a listing
   * unchanged from the one cached or already written is not written again (a write is an fsync).
   */
  remember(slot: Slot): void {
    const conn = slot.conn;
    if (!conn || !slot.cacheKey) return;
    const listing: Listing = {
      tools: conn.tools,
      prompts: conn.prompts,
      resources: conn.resources,
      instructions: conn.instructions,
      usedAt: this.usedAt.get(slot) ?? slot.cached?.usedAt,
    };
    const text = listingText(listing);
    const before = this.written.get(slot) ?? (slot.cached && listingText(slot.cached));
    if (before === text) return;
    this.written.set(slot, text);
    this.cache.put(slot.cacheKey, listing);
  }

  /** A tool of the server was called: stamps the use (hourly at most) for warmStarts. */
  noteUse(slot: Slot, now = Date.now()): void {
    const last = this.usedAt.get(slot) ?? slot.cached?.usedAt;
    if (last !== undefined && now - last < USE_STAMP_EVERY_MS) return;
    this.usedAt.set(slot, now);
    // Not connected yet: the listing is written with the stamp when it connects.
    this.remember(slot);
  }

  /** A resource text an idle server need not start for: its input files are unchanged since it was read. */
  cachedResource(slot: Slot, uri: string, roots: string[]): string | undefined {
    if (!slot.cacheKey || slot.conn || slot.status !== 'idle') return undefined;
    return this.cache.getResource(slot.cacheKey, uri, roots);
  }

  /** Keeps a live read whose result names its input files (`_meta` resourceInputs). */
  storeResource(slot: Slot, uri: string, roots: string[], res: ReadResourceResult): void {
    const inputs = res._meta?.[META.resourceInputs];
    if (!slot.cacheKey || !Array.isArray(inputs) || !inputs.every((p) => typeof p === 'string')) return;
    const text = resourceText(res);
    this.cache.putResource(slot.cacheKey, uri, roots, text, inputs as string[]);
  }

  /** Waits (bounded) for first-time servers still connecting, so their listings are cached before closing. */
  async letFirstConnectsFinish(slots: Iterable<Slot>): Promise<void> {
    const filling = [...slots]
      .filter((s) => s.connecting && s.cacheKey && !this.cache.get(s.cacheKey))
      .map((s) =>
        s.connecting!.then(
          () => undefined,
          () => undefined,
        ),
      );
    if (!filling.length) return;
    let t: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(filling), new Promise<void>((r) => (t = setTimeout(r, LISTING_FILL_GRACE_MS)))]);
    clearTimeout(t);
  }
}
