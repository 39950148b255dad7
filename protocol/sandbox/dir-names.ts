import { readdirSync } from 'node:fs';
import { settledStamp } from '../path-stamp.js';

/**
 * The entry names of a directory that match a pattern, read again only when the directory changed. The
 * sandbox lists every directory above each workspace root before each command (for `.env` files to hide);
 * a parent such as a busy /tmp holds tens of thousands of entries, whose listing cost more than the
 * sandbox itself. A result is kept only with a settled stamp of the directory (see path-stamp.ts), so a
 * change is never missed; what is kept is the few matching names, not the listing.
 */
const MAX_CACHED = 256;

const cache = new Map<string, { stamp: string; names: readonly string[] }>();

/** The names in `dir` that `pattern` matches; throws as readdirSync does when it cannot be read. */
export function matchingNames(dir: string, pattern: RegExp): readonly string[] {
  const key = `${pattern.source}\0${dir}`;
  const stamp = settledStamp(dir);
  const hit = cache.get(key);
  if (stamp && stamp !== '-' && hit?.stamp === stamp) return hit.names;
  const names = readdirSync(dir).filter((n) => pattern.test(n));
  cache.delete(key);
  if (stamp && stamp !== '-') {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(key, { stamp, names });
  }
  return names;
}
