import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotProtected } from './guard.js';
import { startNetProxy, type NetProxy } from './net-proxy.js';
import { existingSecrets, protectedPaths, realOrUndefined } from './paths.js';
import { FILTER, NAMESPACES, type SandboxTools } from './preflight.js';

/**
 * The one interface to the sandbox (design and limits: docs/sandbox.md): what to run and what it may
 * touch in, a command line to spawn out. The caller spawns `file args` with `env` however it likes (its own process group, pipes, an
 * MCP transport) and calls `cleanup()` once the process is gone.
 */
export interface SandboxSpec {
  /** From checkSandbox(): the programs the sandbox is made with. */
  tools: SandboxTools;
  /** Directories the command may write (workspace roots); everything else is read-only. */
  writable: readonly string[];
  cwd: string;
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** Hosts reachable through the filtering proxy; none (the default): no network at all. */
  allowNet?: readonly string[];
  /** Paths to hide besides the default list (see paths.ts). */
  extraSecrets?: readonly string[];
  /**
   * Folders a command may read although a hidden folder holds them (the project temp folder, where a
   * command's full output is saved, inside the hidden `~/.gemini`): mounted again, read-only.
   */
  readable?: readonly string[];
}

export interface WrappedCommand {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Stops the proxy, restores protected files the command changed, removes the private temp folder. */
  cleanup(): Promise<string[]>;
}

/** Port the bridge listens on inside the sandbox's own network namespace. */
const PROXY_PORT = 3128;

/** Starts the sandbox's relay to the proxy, waits until it listens, then runs the command. */
const BRIDGE = `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:"$GEMINI_SANDBOX_PROXY_SOCKET" 2>/dev/null &
i=0; until (: </dev/tcp/127.0.0.1/${PROXY_PORT}) 2>/dev/null; do i=$((i+1)); [ $i -gt 300 ] && break; sleep 0.01; done
exec "$@"`;

export async function wrapCommand(spec: SandboxSpec): Promise<WrappedCommand> {
  const writable = spec.writable.map((w) => realOrUndefined(w)).filter((w): w is string => !!w);
  const { workDir } = spec.tools;
  const tmp = join(workDir, 'tmp');
  const net = (spec.allowNet ?? []).filter(Boolean);
  const filter = join(workDir, net.length > 0 ? FILTER.unixSockets : FILTER.closed);

  const { present, absent, mayBecomeDir } = protectedPaths(writable);
  const guards = writable.map((root) =>
    snapshotProtected(
      root,
      [...present, ...absent].filter((p) => p.startsWith(`${root}/`)),
      mayBecomeDir,
    ),
  );
  const args = [...NAMESPACES, '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  const mounts: Mount[] = writable.map((w) => ({ path: w, args: ['--bind', w, w] }));
  const realWork = realOrUndefined(workDir);
  // A fresh tmpfs per call: private to the command, gone with it.
  const callTmp = realWork ? join(realWork, 'tmp') : tmp;
  mounts.push({ path: callTmp, args: ['--tmpfs', callTmp] });
  for (const p of present) mounts.push({ path: p, args: ['--ro-bind', p, p] });
  const hiddenDirs: string[] = [];
  const secrets = existingSecrets(writable, spec.extraSecrets);
  for (const s of secrets) {
    const h = hide(s);
    if (h.dir) hiddenDirs.push(s);
    mounts.push({ path: s, args: h.args });
  }
  // The seccomp filters and proxy sockets of later calls live here: read-only even inside a writable root
  // (a system temp dir in the workspace), visible even inside a hidden folder. Elsewhere `/` already shows
  // it read-only, and a mount costs bubblewrap a pass over the mount table.
  const within = (dirs: readonly string[]) => dirs.some((d) => realWork === d || realWork?.startsWith(`${d}/`));
  if (realWork && (within(writable) || within(secrets)))
    mounts.push({ path: realWork, args: ['--ro-bind', realWork, realWork] });
  for (const r of spec.readable ?? []) {
    const real = realOrUndefined(r);
    if (real && hiddenDirs.some((d) => real.startsWith(`${d}/`)))
      mounts.push({ path: real, args: ['--ro-bind', real, real] });
  }
  args.push(...inMountOrder(mounts));
  // Last, when every mount inside them exists: a hidden folder is an empty read-only one.
  for (const d of hiddenDirs) args.push('--remount-ro', d);

  const env: NodeJS.ProcessEnv = { ...spec.env, TMPDIR: tmp, SANDBOX: 'gemini-mcp-bwrap' };
  let proxy: NetProxy | undefined;
  let inner = [spec.command, ...spec.args];
  if (net.length > 0) {
    if (!spec.tools.socat) throw new Error('sandbox: socat is needed for a network allow-list');
    const sock = join(workDir, `proxy-${randomBytes(6).toString('hex')}.sock`);
    proxy = await startNetProxy(sock, net);
    for (const s of listeningUnixSockets(sock)) args.push('--ro-bind', '/dev/null', s);
    Object.assign(env, proxyEnv(sock));
    inner = ['/bin/bash', '-c', BRIDGE, 'gemini-sandbox-bridge', ...inner];
  }
  args.push('--chdir', spec.cwd, '--seccomp', '3', '--', ...inner);

  let cleaned: Promise<string[]> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await proxy?.close();
      return guards.flatMap((g) => g.restore());
    })());
  // bwrap reads the filter from fd 3; a shell opens it so any spawner (an MCP transport) can run this.
  return { file: '/bin/sh', args: ['-c', 'exec "$@" 3<"$0"', filter, spec.tools.bwrap, ...args], env, cleanup };
}

/** What HTTP clients inside read to find the proxy (the bridge listens on PROXY_PORT). */
function proxyEnv(sock: string): NodeJS.ProcessEnv {
  const url = `http://127.0.0.1:${PROXY_PORT}`;
  return {
    GEMINI_SANDBOX_PROXY_SOCKET: sock,
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    NO_PROXY: '',
    no_proxy: '',
  };
}

/** A directory becomes an empty folder (made read-only at the end), a file an empty one. */
function hide(p: string): { args: string[]; dir: boolean } {
  try {
    if (statSync(p).isDirectory()) return { args: ['--tmpfs', p], dir: true };
  } catch {
    return { args: [], dir: false };
  }
  return { args: ['--ro-bind', '/dev/null', p], dir: false };
}

interface Mount {
  path: string;
  args: string[];
}

/**
 * bwrap mounts in argument order and a later mount covers what an earlier one put below it, so a
 * shallower path goes first: a root inside a hidden folder is bound after the folder's tmpfs, a secret
 * inside a root after the root. The sort is stable, so one path's mounts keep their order.
 */
function inMountOrder(mounts: Mount[]): string[] {
  const depth = (p: string) => p.split('/').filter(Boolean).length;
  return [...mounts].sort((a, b) => depth(a.path) - depth(b.path)).flatMap((m) => m.args);
}

/**
 * With a network allow-list the bridge needs unix sockets, so seccomp lets them be created; the
 * sockets outside services listen on are then masked instead (taken from /proc/net/unix).
 */
function listeningUnixSockets(own: string): string[] {
  let text: string;
  try {
    text = readFileSync('/proc/net/unix', 'utf8');
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    const path = f[7];
    if (!path?.startsWith('/') || path === own) continue;
    try {
      if (lstatSync(path).isSocket()) out.add(path);
    } catch {
      // gone, or in another mount namespace
    }
  }
  return [...out];
}
