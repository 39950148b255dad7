import { arch } from 'node:process';

/**
 * A classic-BPF seccomp program, handed to bubblewrap with `--seccomp FD`. It closes the ways out that
 * namespaces alone leave open: connecting to a unix socket of an outside service (a Docker socket is
 * reachable through a read-only mount), tracing a process, new namespaces and mounts, kernel keyrings,
 * and loading code into the kernel. Everything else is allowed; a refused call fails with EPERM, so
 * programs see an ordinary error. `clone3` answers ENOSYS: its flags live in memory the filter cannot
 * read, and libc then falls back to `clone`, whose flags it can.
 */

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const ENOSYS = 38;
const AF_UNIX = 1;
/** CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET */
const CLONE_NEW_ANY = 0x7e020000;

// BPF opcodes used here.
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

interface ArchTable {
  audit: number;
  /** x86_64 also answers the x32 ABI (numbers with bit 30 set): refused outright. */
  x32Bit?: number;
  socket: number;
  clone: number;
  clone3: number;
  denied: number[];
}

const TABLES: Record<string, ArchTable> = {
  x64: {
    audit: 0xc000003e,
    x32Bit: 0x40000000,
    socket: 41,
    clone: 56,
    clone3: 435,
    // ptrace, process_vm_readv/writev, mount, umount2, pivot_root, unshare, setns, keyctl, add_key,
    // request_key, bpf, perf_event_open, userfaultfd, open_by_handle_at, name_to_handle_at, kexec_load,
    // init/finit/delete_module, syslog, acct, swapon/off, reboot, open_tree, move_mount, fsopen,
    // fsconfig, fsmount, fspick, mount_setattr; io_uring_setup/enter/register (its operations open
    // and connect sockets where seccomp cannot see them); pidfd_getfd
    denied: [
      101, 310, 311, 165, 166, 155, 272, 308, 250, 248, 249, 321, 298, 323, 304, 303, 246, 175, 313, 176, 103, 163, 167,
      168, 169, 428, 429, 430, 431, 432, 433, 442, 425, 426, 427, 438,
    ],
  },
  arm64: {
    audit: 0xc00000b7,
    socket: 198,
    clone: 220,
    clone3: 435,
    // The same calls in the generic table (asm-generic/unistd.h).
    denied: [
      117, 270, 271, 40, 39, 41, 97, 268, 219, 217, 218, 280, 241, 282, 265, 264, 104, 105, 273, 106, 116, 89, 224, 225,
      142, 428, 429, 430, 431, 432, 433, 442, 425, 426, 427, 438,
    ],
  },
};

/** Whether a filter exists for this machine's architecture. */
export function seccompSupported(machine: string = arch): boolean {
  return machine in TABLES;
}

type Insn = [code: number, jt: number, jf: number, k: number];

/**
 * The compiled program (struct sock_filter[], native endianness) for `machine`. `allowUnixSockets`
 * is for the network bridge, whose relay must reach the proxy's socket.
 */
export function seccompProgram(options: { allowUnixSockets?: boolean } = {}, machine: string = arch): Buffer {
  const t = TABLES[machine];
  if (!t) throw new Error(`no seccomp filter for the ${machine} architecture`);
  const errno = (e: number): Insn => [RET_K, 0, 0, SECCOMP_RET_ERRNO | e];
  const prog: Insn[] = [];
  // Wrong architecture (a 32-bit syscall entry): nothing here is meant for it.
  prog.push([LD_W_ABS, 0, 0, 4], [JEQ_K, 1, 0, t.audit], [RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS]);
  prog.push([LD_W_ABS, 0, 0, 0]);
  if (t.x32Bit !== undefined) prog.push([JGE_K, 0, 1, t.x32Bit], errno(EPERM));
  for (const nr of t.denied) prog.push([JEQ_K, 0, 1, nr], errno(EPERM));
  prog.push([JEQ_K, 0, 1, t.clone3], errno(ENOSYS));
  // clone with any namespace flag (arg 0, low word: seccomp_data.args starts at offset 16).
  prog.push([JEQ_K, 0, 4, t.clone], [LD_W_ABS, 0, 0, 16], [JSET_K, 0, 1, CLONE_NEW_ANY], errno(EPERM), [
    RET_K,
    0,
    0,
    SECCOMP_RET_ALLOW,
  ]);
  if (!options.allowUnixSockets) {
    prog.push([JEQ_K, 0, 3, t.socket], [LD_W_ABS, 0, 0, 16], [JEQ_K, 0, 1, AF_UNIX], errno(EPERM));
  }
  prog.push([RET_K, 0, 0, SECCOMP_RET_ALLOW]);
  const out = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
