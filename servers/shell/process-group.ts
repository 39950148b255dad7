import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

/**
 * Process-group primitives. Every command runs as the leader of its own group (spawned detached),
 * so signalling `-pgid` reaches everything it started, background jobs included, unless a child
 * deliberately left the group (setsid).
 */

export interface GroupMember {
  pid: number;
  /** One-letter state from /proc (`Z` = zombie: finished, waiting to be reaped). */
  state: string;
}

/** Members of a process group, zombies excluded (a zombie runs nothing and cannot be killed). */
export function groupMembers(pgid: number): number[] {
  return listGroup(pgid).filter((m) => m.state !== 'Z').map((m) => m.pid);
}

function listGroup(pgid: number): GroupMember[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return listGroupWithPs(pgid);
  }
  const out: GroupMember[] = [];
  for (const name of entries) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'latin1');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the command name (which may contain spaces and parentheses): state ppid pgrp …
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(rest[2]) === pgid) out.push({ pid: Number(name), state: rest[0] });
  }
  return out;
}

/** Fallback for systems without /proc (macOS): `ps` reports the process group and state. */
function listGroupWithPs(pgid: number): GroupMember[] {
  try {
    const text = execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat='], { encoding: 'utf8' });
    return text
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((f) => f.length >= 3 && Number(f[1]) === pgid)
      .map((f) => ({ pid: Number(f[0]), state: f[2][0] }));
  } catch {
    return [];
  }
}

/** Whether any process (possibly only zombies) is left in the group; cheap, no /proc scan. */
export function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until no live member is left or `ms` passed; true when the group is gone. */
async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!groupExists(pgid) || groupMembers(pgid).length === 0) return true;
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
}

/** SIGTERM to the whole group, SIGKILL to whatever is left after the grace period. */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  signalGroup(pgid, 'SIGTERM');
  if (await waitGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitGone(pgid, 2000);
}

/**
 * The groups one server instance is responsible for: commands still running and commands that
 * finished but left background jobs. Closing the connection or shutting down ends them all.
 */
export class GroupRegistry {
  private readonly groups = new Set<number>();
  private closed = false;

  constructor(private readonly graceMs: number) {}

  get isClosed(): boolean {
    return this.closed;
  }

  add(pgid: number): void {
    this.groups.add(pgid);
  }

  delete(pgid: number): void {
    this.groups.delete(pgid);
  }

  has(pgid: number): boolean {
    return this.groups.has(pgid);
  }

  terminate(pgid: number): Promise<void> {
    return terminateGroup(pgid, this.graceMs).finally(() => this.groups.delete(pgid));
  }

  /** Ends every group; later commands are refused (the server is going away). */
  async terminateAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.groups].map((g) => this.terminate(g)));
  }
}
