import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { GroupWatcher } from './group-watcher.js';

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
  return listGroup(pgid)
    .filter((m) => m.state !== 'Z')
    .map((m) => m.pid);
}

interface ProcEntry extends GroupMember {
  ppid: number;
  pgrp: number;
}

/** Every process /proc shows (pid, state, parent, group); undefined without /proc. */
function scanProcs(): ProcEntry[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const out: ProcEntry[] = [];
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
    out.push({ pid: Number(name), state: rest[0] ?? '', ppid: Number(rest[1]), pgrp: Number(rest[2]) });
  }
  return out;
}

function listGroup(pgid: number): GroupMember[] {
  const all = scanProcs();
  if (!all) return listGroupWithPs(pgid);
  return all.filter((p) => p.pgrp === pgid).map(({ pid, state }) => ({ pid, state }));
}

/**
 * The groups of processes below the group's members that left it: the sandbox (bwrap --new-session)
 * runs the command in a session of its own. Found from the parent links while the group's members still
 * live, so a cancel at the very start (before bwrap's inner process has tied its life to the outer one)
 * still reaches the command.
 */
function commandTree(pgid: number): { groups: number[]; pids: number[] } {
  const all = scanProcs() ?? [];
  const children = new Map<number, ProcEntry[]>();
  for (const p of all) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const seen = new Set<number>();
  const queue = all.filter((p) => p.pgrp === pgid);
  const groups = new Set<number>();
  while (queue.length) {
    const p = queue.pop()!;
    if (seen.has(p.pid)) continue;
    seen.add(p.pid);
    if (p.pgrp !== pgid && p.pgrp > 1) groups.add(p.pgrp);
    queue.push(...(children.get(p.pid) ?? []));
  }
  return { groups: [...groups], pids: [...seen] };
}

/** The pids of the list still running (a zombie has ended). */
function stillRunning(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return false;
    }
  });
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

/** Polls `cond` until it holds or `ms` passed; whether it held. */
async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (cond()) return true;
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** Polls until every live member of the group is stopped, or `ms` passed. */
async function waitStopped(pgid: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && listGroup(pgid).some((m) => m.state !== 'T' && m.state !== 't' && m.state !== 'Z'))
    await sleep(5);
}

/**
 * SIGTERM to the whole group and to the groups its members started below it (a sandboxed command's own
 * session), inner ones first; SIGKILL to whatever is left after the grace period.
 */
export async function terminateGroup(pgid: number, graceMs: number): Promise<void> {
  // Frozen first, so nothing forks or leaves the group while its tree is read; TERM waits for the CONT.
  // A stop lands when the process next returns from the kernel (a clone in progress completes first), so
  // the tree is read once every member is seen stopped.
  signalGroup(pgid, 'SIGSTOP');
  await waitStopped(pgid, 250);
  const tree = commandTree(pgid);
  const groups = [...tree.groups, pgid];
  for (const g of groups) signalGroup(g, 'SIGTERM');
  for (const g of groups) signalGroup(g, 'SIGCONT');
  // A process may leave the group after the TERM without dying of it (bwrap's inner process, which ignores
  // it until its setup is done and then becomes a namespace's init): its pid is followed, not its group.
  const ended = () =>
    groups.every((g) => !groupExists(g) || groupMembers(g).length === 0) && !stillRunning(tree.pids).length;
  if (await until(ended, graceMs)) return;
  for (const g of groups) signalGroup(g, 'SIGKILL');
  for (const pid of stillRunning(tree.pids)) signalPid(pid, 'SIGKILL');
  await until(ended, 2000);
}

/**
 * The groups one server instance is responsible for: commands still running and commands that
 * finished but left background jobs. Closing the connection or shutting down ends them all, and the
 * watcher (group-watcher.ts) ends them should the server itself be killed.
 */
export class GroupRegistry {
  private readonly groups = new Set<number>();
  private readonly watcher = new GroupWatcher();
  private closed = false;

  constructor(private readonly graceMs: number) {}

  get isClosed(): boolean {
    return this.closed;
  }

  add(pgid: number): void {
    this.groups.add(pgid);
    this.watcher.watch(pgid);
  }

  delete(pgid: number): void {
    this.watcher.release(pgid);
    this.groups.delete(pgid);
  }

  has(pgid: number): boolean {
    return this.groups.has(pgid);
  }

  terminate(pgid: number): Promise<void> {
    return terminateGroup(pgid, this.graceMs).finally(() => this.delete(pgid));
  }

  /** Ends every group; later commands are refused (the server is going away). */
  async terminateAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.groups].map((g) => this.terminate(g)));
    this.watcher.close();
  }
}
