import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import { listingKey, type CachedListing, type ListingCache } from './listing-cache.js';
import type { Slot } from './server-slot.js';
import { resourceText } from './util.js';

/** How long closing waits for a first-time server's connection, so that its listing gets cached. */
const LISTING_FILL_GRACE_MS = 3000;

/**
 * The client manager's use of the listing cache: which servers may stay idle at start, remembering what
 * each server offers whenever it connects or re-lists, and resource texts an idle server need not be
 * started for.
 */
export class ListingKeeper {
  private readonly written = new WeakMap<Slot, string>();

  constructor(private readonly cache: ListingCache) {}

  /** At session start: the cached listing a lazy server is declared from, or undefined when it must start. */
  prepare(slot: Slot): CachedListing | undefined {
    slot.cacheKey = listingKey(slot.config);
    if (slot.config.startup === 'eager') return undefined;
    return this.cache.get(slot.cacheKey);
  }

  /**
   * Writes the live listing at once (a short headless run may exit right after its one call); a listing
   * already written is not written again.
   */
  remember(slot: Slot): void {
    const conn = slot.conn;
    if (!conn || !slot.cacheKey) return;
    const listing = {
      tools: conn.tools,
      prompts: conn.prompts,
      resources: conn.resources,
      instructions: conn.instructions,
    };
    const text = JSON.stringify(listing);
    if (this.written.get(slot) === text) return;
    this.written.set(slot, text);
    this.cache.put(slot.cacheKey, listing);
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
