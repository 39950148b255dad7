import { type BigIntStats, statfsSync, statSync } from 'node:fs';

/**
 * How long a path must have been unchanged before its stamp is trusted. A change moves a file's or a
 * folder's mtime and ctime only by a tick of the file system's clock, so a second change within the
 * tick of the first would leave the stamp as it was: a stamp is only taken of a path whose last change
 * is older than one tick. Local Linux file systems keep nanoseconds from the kernel's coarse clock (a
 * tick is at most 10 ms): 100 ms covers it. Any other (FAT keeps two seconds; a network file system
 * keeps its server's clock): two seconds.
 */
const SETTLED_MS = { fine: 100, other: 2_000 };

/** statfs magic numbers of local file systems with nanosecond times: ext2/3/4, xfs, btrfs, tmpfs, overlayfs, f2fs, zfs. */
const FINE_GRAINED = new Set([0xef53, 0x58465342, 0x9123683e, 0x01021994, 0x794c7630, 0xf2f52010, 0x2fc12fc1]);

/** Settling time per device (a device's file system does not change while mounted). */
const settleOf = new Map<bigint, number>();

function settleMs(path: string, dev: bigint): number {
  let ms = settleOf.get(dev);
  if (ms === undefined) {
    try {
      ms = FINE_GRAINED.has(Number(statfsSync(path).type)) ? SETTLED_MS.fine : SETTLED_MS.other;
    } catch {
      ms = SETTLED_MS.other;
    }
    settleOf.set(dev, ms);
  }
  return ms;
}

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
  if (now - Number(last / 1_000_000n) <= settleMs(path, st.dev)) return undefined;
  return `${st.dev}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}:${st.size}`;
}
