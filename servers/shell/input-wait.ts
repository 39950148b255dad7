import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from 'node:fs';

/**
 * Whether a command waits for someone to type: a process it started sleeps in a read of the command's
 * standard input (which the server holds open and never writes), or in a poll / select / epoll wait
 * whose only input is that stdin. Linux only (/proc); elsewhere nothing is ever found.
 *
 * A wait that also watches a socket is not counted: `ssh host cmd` forwards its stdin while it waits on
 * the connection, and is doing its work, not asking.
 */

/** Syscall numbers of the waits that matter, per architecture (Linux's tables). */
const SYSCALLS: Record<string, { read: number[]; poll: number[]; select: number[]; epoll: number[] }> = {
  // read, pread64, readv | poll, ppoll | select, pselect6 | epoll_wait, epoll_pwait, epoll_pwait2
  x64: { read: [0, 17, 19], poll: [7, 271], select: [23, 270], epoll: [232, 281, 441] },
  // read, readv, pread64 | ppoll | pselect6 | epoll_pwait, epoll_pwait2
  arm64: { read: [63, 65, 67], poll: [73], select: [72], epoll: [22, 441] },
};

/** Whether this system can tell (Linux with a known syscall table); elsewhere stdin stays at end-of-file. */
export const CAN_WATCH_INPUT = process.platform === 'linux' && SYSCALLS[process.arch] !== undefined;

/** At most this many descriptors of one wait are looked at. */
const MAX_FDS = 256;

export interface InputWait {
  pid: number;
  /** The program's name (`/proc/PID/comm`). */
  program: string;
}

/** The first process under `leader` (itself included) waiting to read the leader's stdin, if any. */
export function findInputWait(leader: number): InputWait | undefined {
  const table = SYSCALLS[process.arch];
  if (!table || !CAN_WATCH_INPUT) return undefined;
  const stdin = link(leader, 0);
  if (!stdin) return undefined;
  // The command's own output sockets are no connection it is working on.
  const own = new Set([stdin, link(leader, 1), link(leader, 2)]);
  for (const pid of descendants(leader)) {
    const fds = waitedFds(pid, table);
    if (!fds || fds.length === 0) continue;
    const links = fds.map((fd) => link(pid, fd));
    const onStdin = links.some((l) => l === stdin);
    const onSocket = links.some((l) => l !== undefined && !own.has(l) && l.startsWith('socket:'));
    if (onStdin && !onSocket) return { pid, program: read(`/proc/${pid}/comm`)?.trim() || String(pid) };
  }
  return undefined;
}

/** The descriptors a sleeping process waits to read from, from its current syscall; undefined when none. */
function waitedFds(pid: number, table: (typeof SYSCALLS)[string]): number[] | undefined {
  const fields = read(`/proc/${pid}/syscall`)?.trim().split(' ');
  if (!fields || fields.length < 3) return undefined; // running, or not ours to look at
  const nr = Number(fields[0]);
  const arg = (i: number) => BigInt(fields[i + 1] ?? '0');
  if (table.read.includes(nr)) return [Number(arg(0))];
  if (table.epoll.includes(nr)) return epollFds(pid, Number(arg(0)));
  if (table.poll.includes(nr)) return pollFds(pid, arg(0), Number(arg(1)));
  if (table.select.includes(nr)) return selectFds(pid, Number(arg(0)), arg(1));
  return undefined;
}

/** The descriptors an epoll instance watches for input (`tfd:` lines of its fdinfo with EPOLLIN set). */
function epollFds(pid: number, epfd: number): number[] {
  const info = read(`/proc/${pid}/fdinfo/${epfd}`) ?? '';
  return [...info.matchAll(/^tfd:\s+(\d+)\s+events:\s+([0-9a-f]+)/gm)]
    .filter((m) => Number.parseInt(m[2]!, 16) & 1)
    .map((m) => Number(m[1]));
}

/** `struct pollfd { int fd; short events; short revents; }` entries asking for input (POLLIN). */
function pollFds(pid: number, ptr: bigint, n: number): number[] | undefined {
  const buf = readMemory(pid, ptr, Math.min(n, MAX_FDS) * 8);
  if (!buf) return undefined;
  const out: number[] = [];
  for (let off = 0; off + 8 <= buf.length; off += 8) {
    if (buf.readInt16LE(off + 4) & 1) out.push(buf.readInt32LE(off));
  }
  return out;
}

/** The descriptors set in a select's read set (a bitmap of `nfds` bits). */
function selectFds(pid: number, nfds: number, ptr: bigint): number[] | undefined {
  if (ptr === 0n) return [];
  const n = Math.min(nfds, MAX_FDS);
  const buf = readMemory(pid, ptr, Math.ceil(n / 8));
  // A read set of one descriptor can only be stdin's: no need to read the process's memory.
  if (!buf) return nfds === 1 ? [0] : undefined;
  const out: number[] = [];
  for (let fd = 0; fd < n; fd++) if (buf[fd >> 3]! & (1 << (fd & 7))) out.push(fd);
  return out;
}

/** Bytes of a descendant's memory (allowed to its ancestor); undefined when the kernel says no. */
function readMemory(pid: number, address: bigint, length: number): Buffer | undefined {
  if (length <= 0) return Buffer.alloc(0);
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/mem`, 'r');
    const buf = Buffer.alloc(length);
    const got = readSync(fd, buf, 0, length, address);
    return got === length ? buf : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `leader` and every process below it (by parent pid), sleeping ones only: a running process waits for nothing. */
function descendants(leader: number): number[] {
  const children = new Map<number, number[]>();
  const sleeping = new Set<number>();
  for (const name of safeList('/proc')) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const stat = read(`/proc/${name}/stat`);
    if (!stat) continue;
    // Fields after the command name (which may hold spaces and parentheses): state ppid …
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(name);
    const ppid = Number(rest[1]);
    if (rest[0] === 'S') sleeping.add(pid);
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const out: number[] = [];
  const queue = [leader];
  for (let i = 0; i < queue.length; i++) {
    const pid = queue[i]!;
    if (sleeping.has(pid)) out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

function link(pid: number, fd: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/fd/${fd}`);
  } catch {
    return undefined;
  }
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return undefined;
  }
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** How long a command must be silent before its processes are looked at. */
const QUIET_MS = 1000;
/**
 * How often they are then: soon at first, then less and less often while the command stays silent
 * without waiting on its stdin (a long quiet build costs a scan of /proc every few seconds, not twice a
 * second); new output starts over.
 */
const FIRST_CHECK_MS = 500;
const MAX_CHECK_MS = 4000;

/**
 * Watches a running command (its leader's pid) for a wait on its stdin, once it has been silent a while
 * (`lastOutput` says when it last printed): a program that prints a prompt and waits is found about a
 * second later, a busy one is left alone. Calls `found` once; the returned function stops the watch.
 */
export function watchForInput(leader: number, lastOutput: () => number, found: (wait: InputWait) => void): () => void {
  if (!CAN_WATCH_INPUT) return () => undefined;
  let every = FIRST_CHECK_MS;
  let seen = lastOutput();
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    if (lastOutput() !== seen) {
      seen = lastOutput();
      every = FIRST_CHECK_MS;
    }
    if (Date.now() - seen >= QUIET_MS) {
      const wait = findInputWait(leader);
      if (wait) return found(wait);
      every = Math.min(every * 1.5, MAX_CHECK_MS);
    }
    timer = setTimeout(check, every);
  };
  timer = setTimeout(check, every);
  return () => clearTimeout(timer);
}
