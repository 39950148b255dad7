import { describe, expect, it } from 'vitest';
import { seccompProgram, seccompSupported } from '../../../protocol/sandbox/seccomp.js';

const ALLOW = 0x7fff0000;
const KILL = 0x80000000;
const errno = (e: number) => 0x00050000 | e;
const EPERM = errno(1);
const ENOSYS = errno(38);
const AUDIT = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;

/**
 * Runs a classic-BPF program as the kernel would, on one system call (struct seccomp_data: nr at 0,
 * arch at 4, instruction pointer at 8, six 64-bit args from 16). Only the opcodes a seccomp filter of
 * this shape may use; anything else, or a jump out of the program, fails the test.
 */
function run(prog: Buffer, call: { nr: number; arch: number; args?: number[] }): number {
  const data = Buffer.alloc(64);
  data.writeUInt32LE(call.nr >>> 0, 0);
  data.writeUInt32LE(call.arch >>> 0, 4);
  for (const [i, a] of (call.args ?? []).entries()) data.writeBigUInt64LE(BigInt(a), 16 + i * 8);
  const count = prog.length / 8;
  let acc = 0;
  for (let pc = 0; pc < count; pc++) {
    const code = prog.readUInt16LE(pc * 8);
    const jt = prog.readUInt8(pc * 8 + 2);
    const jf = prog.readUInt8(pc * 8 + 3);
    const k = prog.readUInt32LE(pc * 8 + 4);
    const branch = (cond: boolean) => {
      pc += cond ? jt : jf;
    };
    if (code === 0x20) acc = data.readUInt32LE(k);
    else if (code === 0x15) branch(acc === k);
    else if (code === 0x35) branch(acc >>> 0 >= k);
    else if (code === 0x45) branch((acc & k) !== 0);
    else if (code === 0x06) return k;
    else throw new Error(`unexpected opcode ${code} at ${pc}`);
  }
  throw new Error('fell off the end of the program');
}

describe('seccompProgram on x86_64', () => {
  const prog = seccompProgram({}, 'x64');
  const call = (nr: number, args?: number[]) => run(prog, { nr, arch: AUDIT.x64, args });

  it('ordinary calls are allowed', () => {
    for (const nr of [0, 1, 2, 59, 257]) expect(call(nr), `nr ${nr}`).toBe(ALLOW); // read write open execve openat
  });

  it('tracing, namespaces, mounts, keyrings, modules and io_uring fail with EPERM', () => {
    for (const nr of [101, 165, 272, 308, 250, 321, 175, 313, 425, 438]) expect(call(nr), `nr ${nr}`).toBe(EPERM);
  });

  it('clone3 answers ENOSYS so libc falls back to clone', () => {
    expect(call(435)).toBe(ENOSYS);
  });

  it('clone: plain threads and forks are allowed, any new namespace flag is refused', () => {
    expect(call(56, [0x3d0f00])).toBe(ALLOW); // pthread_create's flags
    expect(call(56, [17])).toBe(ALLOW); // fork: SIGCHLD
    for (const flag of [0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000])
      expect(call(56, [flag | 17]), flag.toString(16)).toBe(EPERM);
  });

  it('unix sockets are refused, other families allowed; the bridge may open unix sockets', () => {
    expect(call(41, [1, 1, 0])).toBe(EPERM);
    expect(call(41, [2, 1, 0])).toBe(ALLOW);
    expect(call(41, [10, 2, 0])).toBe(ALLOW);
    const bridge = seccompProgram({ allowUnixSockets: true }, 'x64');
    expect(run(bridge, { nr: 41, arch: AUDIT.x64, args: [1, 1, 0] })).toBe(ALLOW);
    expect(run(bridge, { nr: 101, arch: AUDIT.x64 })).toBe(EPERM);
  });

  it('a 32-bit entry (another audit arch) kills the process; x32 numbers are refused', () => {
    expect(call(0)).toBe(ALLOW);
    expect(run(prog, { nr: 0, arch: 0x40000003 })).toBe(KILL);
    expect(call(0x40000000 | 101)).toBe(EPERM);
    expect(call(0x40000000)).toBe(EPERM);
  });
});

describe('seccompProgram on arm64', () => {
  const prog = seccompProgram({}, 'arm64');
  const call = (nr: number, args?: number[]) => run(prog, { nr, arch: AUDIT.arm64, args });

  it('uses the generic table: ptrace, unshare and unix sockets refused, read allowed', () => {
    expect(call(117)).toBe(EPERM);
    expect(call(97)).toBe(EPERM);
    expect(call(198, [1])).toBe(EPERM);
    expect(call(198, [2])).toBe(ALLOW);
    expect(call(63)).toBe(ALLOW);
    expect(call(220, [0x10000000])).toBe(EPERM);
    expect(run(prog, { nr: 63, arch: AUDIT.x64 })).toBe(KILL);
  });
});

describe('architectures', () => {
  it('only x64 and arm64 have a filter; others throw a clear error', () => {
    expect([seccompSupported('x64'), seccompSupported('arm64'), seccompSupported('ia32')]).toEqual([true, true, false]);
    expect(() => seccompProgram({}, 'riscv64')).toThrow('no seccomp filter for the riscv64 architecture');
  });
});
