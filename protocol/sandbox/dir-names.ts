import { readdirSync, statSync } from 'node:fs';

/**
 * A directory's entry names, read again only when the directory changed. The sandbox lists every
 * directory above each workspace root before each command (for `.env` files to hide); a parent such as
 * a busy /tmp holds tens of thousands of entries, whose listing cost more than the sandbox itself.
 *
 * A change to a directory's entries (create, delete, rename) moves its mtime and ctime, but only by a
 * tick of the file system's clock (a few milliseconds; two seconds on FAT), so a change within the same
 * tick as the listing would go unseen. A listing is therefore reused only when the directory had not
 * changed for longer than that before it was read.
 */
const SETTLED_MS = 2_000;
const MAX_CACHED = 256;

interface Listing {
  /** Inode and change times, to the nanosecond: any difference means the names are read again. */
  key: string;
  names: readonly string[];
}

const cache = new Map<string, Listing>();

/** The entry names of `dir`; throws as readdirSync does when it cannot be read. */
export function dirNames(dir: string): readonly string[] {
  const st = statSync(dir, { bigint: true });
  const key = `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
  const hit = cache.get(dir);
  if (hit?.key === key) return hit.names;
  const readAt = Date.now();
  const names = readdirSync(dir);
  const lastChange = Number((st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs) / 1_000_000n);
  if (readAt - lastChange > SETTLED_MS) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(dir, { key, names });
  } else cache.delete(dir);
  return names;
}
