import { readdirSync } from 'node:fs';
import { settledStamp } from '../path-stamp.js';

/**
 * A directory's entry names, read again only when the directory changed. The sandbox lists every
 * directory above each workspace root before each command (for `.env` files to hide); a parent such as
 * a busy /tmp holds tens of thousands of entries, whose listing cost more than the sandbox itself.
 * A listing is kept only with a settled stamp of the directory (see path-stamp.ts), so a change is
 * never missed.
 */
const MAX_CACHED = 256;

const cache = new Map<string, { stamp: string; names: readonly string[] }>();

/** The entry names of `dir`; throws as readdirSync does when it cannot be read. */
export function dirNames(dir: string): readonly string[] {
  const stamp = settledStamp(dir);
  const hit = cache.get(dir);
  if (stamp && stamp !== '-' && hit?.stamp === stamp) return hit.names;
  const names = readdirSync(dir);
  cache.delete(dir);
  if (stamp && stamp !== '-') {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(dir, { stamp, names });
  }
  return names;
}
