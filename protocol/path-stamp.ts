import { type BigIntStats, statSync } from 'node:fs';

/**
 * How long a path must have been unchanged before its stamp is trusted. A change moves a file's or a
 * folder's mtime and ctime only by a tick of the file system's clock (a few milliseconds; two seconds on
 * FAT), so a second change within the tick of the first would leave the stamp as it was: a stamp is only
 * taken of a path whose last change is older than that.
 */
export const SETTLED_MS = 2_000;

/**
 * What a path is now, as a string that differs after any change to it (a folder: to its entries):
 * device, inode, mtime, ctime and size to the nanosecond; `-` when it does not exist. Undefined when it
 * changed too recently to tell a later change apart (see SETTLED_MS): a caller then keeps nothing.
 */
export function settledStamp(path: string, now = Date.now()): string | undefined {
  let st: BigIntStats | undefined;
  try {
    // Absent is the common answer (a context file name in a folder without one): no exception for it.
    st = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOTDIR' ? '-' : undefined;
  }
  if (!st) return '-';
  const last = st.mtimeNs > st.ctimeNs ? st.mtimeNs : st.ctimeNs;
  if (now - Number(last / 1_000_000n) <= SETTLED_MS) return undefined;
  return `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}:${st.size}`;
}
