import { spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { seccompProgram, seccompSupported } from './seccomp.js';

/** Every sandbox: its own user, pid, IPC, network, UTS namespaces; no capabilities, no nested user namespaces. */
export const NAMESPACES = [
  '--die-with-parent',
  '--new-session',
  '--unshare-user',
  '--unshare-ipc',
  '--unshare-pid',
  '--unshare-net',
  '--unshare-uts',
  '--unshare-cgroup-try',
  '--disable-userns',
  '--cap-drop',
  'ALL',
];

/** The sandbox cannot be set up here: the message says what to install or change. */
export class SandboxUnavailableError extends Error {
  override name = 'SandboxUnavailableError';
}

/** Looks a program up on PATH the way exec does; undefined when it is not there. */
function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface SandboxTools {
  bwrap: string;
  /** Needed only when a network allow-list is given. */
  socat?: string;
  /**
   * This process's folder for the sandbox: the compiled seccomp filters, the proxies' sockets, and
   * `tmp/`, the mount point of each call's private TMPDIR (a fresh tmpfs). Removed when the process exits.
   */
  workDir: string;
}

/**
 * Checks once, before any command runs, that a sandbox can be built: Linux, bubblewrap on PATH, user
 * namespaces usable, a seccomp filter for this architecture (and socat when hosts are allowed).
 * Throws SandboxUnavailableError instead: callers refuse to start rather than run unconfined.
 */
export function checkSandbox(opts: { needNet?: boolean } = {}): SandboxTools {
  return { ...findSandboxTools(opts), workDir: prepareWorkDir() };
}

/**
 * checkSandbox's checks without its work folder, for a caller that only needs to know (the host, before
 * it starts a sandboxed shell server): throws SandboxUnavailableError naming what to install or change.
 */
export function findSandboxTools(opts: { needNet?: boolean } = {}): Omit<SandboxTools, 'workDir'> {
  if (process.platform !== 'linux') {
    throw new SandboxUnavailableError(
      `sandbox: not supported on ${process.platform} (it needs Linux with bubblewrap); start without --sandbox`,
    );
  }
  if (!seccompSupported()) {
    throw new SandboxUnavailableError(`sandbox: no seccomp filter for the ${process.arch} architecture (x64, arm64)`);
  }
  const bwrap = findOnPath('bwrap');
  if (!bwrap) {
    throw new SandboxUnavailableError(
      'sandbox: bubblewrap (bwrap) is not on PATH; install it (Debian/Ubuntu: apt-get install bubblewrap socat; Fedora: dnf install bubblewrap socat)',
    );
  }
  const probe = spawnSync(bwrap, [...NAMESPACES, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (probe.status !== 0) {
    const why = (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim();
    throw new SandboxUnavailableError(
      `sandbox: bubblewrap cannot create namespaces here (${why}); enable unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap) or use bubblewrap 0.8 or later`,
    );
  }
  const socat = findOnPath('socat');
  if (opts.needNet && !socat) {
    throw new SandboxUnavailableError(
      'sandbox: socat is not on PATH and a network allow-list was given; install it (apt-get install socat)',
    );
  }
  return { bwrap, socat };
}

/**
 * The filter files are written once per process; each call then costs no file system work of its own.
 * The folder is a process-wide resource (one exit handler removes it), hence kept here once made.
 */
const workDirs: string[] = [];

function prepareWorkDir(): string {
  if (workDirs[0]) return workDirs[0];
  const dir = mkdtempSync(join(tmpdir(), 'gemini-sandbox-'));
  mkdirSync(join(dir, 'tmp'));
  writeFileSync(join(dir, FILTER.closed), seccompProgram());
  writeFileSync(join(dir, FILTER.unixSockets), seccompProgram({ allowUnixSockets: true }));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  workDirs.push(dir);
  return dir;
}

/** File names of the two filters in the work folder: the usual one, and the network bridge's. */
export const FILTER = { closed: 'seccomp.bpf', unixSockets: 'seccomp-unix.bpf' } as const;
