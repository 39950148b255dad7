import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/**
 * The read-only mounts over protected workspace files (.git/hooks, .mcp.json, …) stop writes to them,
 * but not a rename of a directory above them (`mv .git elsewhere && mkdir .git`), nor the creation of
 * one that did not exist. So each call also takes a snapshot of those paths before and compares it
 * after; whatever changed is moved aside as `<name>.sandbox-rejected-<time>` (nothing is deleted) and
 * the snapshot is put back.
 */

type Snap =
  | { kind: 'missing' }
  | { kind: 'file'; mode: number; data: Buffer }
  | { kind: 'dir'; mode: number; entries: Map<string, Snap> }
  | { kind: 'other'; ino: number }
  /** A directory whose contents are guarded one by one elsewhere (only its kind matters). */
  | { kind: 'dirOk' };

const MAX_FILE = 1 << 20;
const MAX_ENTRIES = 200;

function snap(p: string, depth = 0, budget = { n: 0 }, kindOnly = false): Snap {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(p);
  } catch {
    return { kind: 'missing' };
  }
  if (kindOnly && st.isDirectory()) return { kind: 'dirOk' };
  const other: Snap = { kind: 'other', ino: Number(st.ino) };
  if (++budget.n > MAX_ENTRIES) return other;
  try {
    if (st.isFile() && st.size <= MAX_FILE) return { kind: 'file', mode: st.mode & 0o7777, data: readFileSync(p) };
    if (st.isDirectory() && depth < 3) {
      const entries = new Map<string, Snap>();
      for (const name of readdirSync(p).sort()) entries.set(name, snap(join(p, name), depth + 1, budget));
      return { kind: 'dir', mode: st.mode & 0o7777, entries };
    }
  } catch {
    // unreadable: the read-only mount still guards it; only its replacement is noticed
  }
  return other;
}

function same(a: Snap, b: Snap): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file') return a.mode === b.mode && a.data.equals(b.data);
  if (a.kind === 'dir' && b.kind === 'dir') {
    if (a.entries.size !== b.entries.size) return false;
    for (const [k, v] of a.entries) {
      const w = b.entries.get(k);
      if (!w || !same(v, w)) return false;
    }
    return true;
  }
  if (a.kind === 'other' && b.kind === 'other') return a.ino === b.ino;
  return true;
}

interface ProtectedSnapshot {
  /** Puts changed paths back; returns one line per path it had to restore. */
  restore(): string[];
}

/** `mayBecomeDir`: missing paths that may turn into a directory (a `.git` from `git init`), nothing else. */
export function snapshotProtected(
  root: string,
  paths: readonly string[],
  mayBecomeDir: readonly string[] = [],
): ProtectedSnapshot {
  const before = paths.map((p) => [p, snap(p, 0, { n: 0 }, mayBecomeDir.includes(p))] as const);
  return {
    restore: () => {
      const notes: string[] = [];
      for (const [p, was] of before) {
        const now = snap(p, 0, { n: 0 }, mayBecomeDir.includes(p));
        if (same(was, now) || (was.kind === 'missing' && now.kind === 'dirOk')) continue;
        try {
          const aside = moveAside(root, p);
          if (was.kind === 'file' || was.kind === 'dir') write(p, was);
          notes.push(
            `sandbox: ${relative(root, p)} was changed by the command and has been restored` +
              (aside ? ` (the command's version is at ${relative(root, aside)})` : ''),
          );
        } catch (err) {
          notes.push(`sandbox: ${relative(root, p)} was changed by the command and could not be restored: ${err}`);
        }
      }
      return notes;
    },
  };
}

/** Moves the changed path — or the first non-directory above it that blocks it — out of the way. */
function moveAside(root: string, p: string): string | undefined {
  const parts = relative(root, p).split(sep);
  for (let i = 1; i <= parts.length; i++) {
    const at = join(root, ...parts.slice(0, i));
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(at);
    } catch {
      return undefined; // nothing there: nothing to move
    }
    if (i === parts.length || !st.isDirectory()) {
      const aside = `${at}.sandbox-rejected-${Date.now()}`;
      renameSync(at, aside);
      return aside;
    }
  }
  return undefined;
}

function write(p: string, s: Snap): void {
  mkdirSync(dirname(p), { recursive: true });
  if (s.kind === 'file') writeFileSync(p, s.data, { mode: s.mode, flag: 'wx' });
  else if (s.kind === 'dir') {
    mkdirSync(p, { mode: s.mode });
    for (const [name, child] of s.entries) write(join(p, name), child);
  }
}
