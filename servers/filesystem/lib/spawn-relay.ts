import type { ChildProcess } from 'node:child_process';
import { lazyRequire } from '../../../protocol/lazy-require.js';

/** Where a started process's output and end go; the same for a direct spawn and a relayed one. */
export interface ProcessSink {
  stdout(text: string): void;
  stderr(text: string): void;
  /** It could not start, or was aborted: nothing more comes but possibly `close`. */
  error(err: Error): void;
  close(code: number | null): void;
}

/** Starts search processes (rg, git grep, grep) for a server process. */
export interface Launcher {
  /** Runs `cmd`; an abort of `signal` kills it and reports the abort to `sink.error`. */
  run(cmd: string, args: string[], cwd: string, signal: AbortSignal, sink: ProcessSink): void;
  /** Ends the relay, if one was started. */
  close(): void;
}

/**
 * From this resident size on, a process is started through the relay. Node starts a child by forking, on
 * the calling thread, at a cost in proportion to the caller's memory (measured here: 0.8 ms at 48 MiB,
 * 2.7 ms at 98 MiB, 6.3 ms at 199 MiB). A server answering 32 clients holds 120–154 MiB and its searches
 * start rg twice each, so the forks took ~30% of its main thread. The relay is a small Node process of
 * its own (~40 MiB, started once, ~40 ms of CPU on another core) whose forks are cheap and off the
 * server's thread. Below this size, as in a session of one user, the server forks as it always did.
 */
export const RELAY_FROM_RSS = 96 * 1024 * 1024;

/** `GEMINI_MCP_SEARCH_RELAY_MIB` moves the threshold: 0 relays from the first search on (tests use it). */
export function relayThreshold(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.GEMINI_MCP_SEARCH_RELAY_MIB;
  const mib = raw ? Number(raw) : Number.NaN;
  return Number.isFinite(mib) && mib >= 0 ? mib * 1024 * 1024 : RELAY_FROM_RSS;
}

/** A relayed process whose output has this many messages not yet sent is paused until they are. */
const MAX_UNSENT = 16;

// CommonJS source for `node -e`: the bundle has no separate file to start. Messages in: {id, cmd, args,
// cwd} starts a process, {id, kill: true} ends it. Out: {id, out}, {id, err}, {id, error}, {id, close}.
// When the server goes (its end of the channel closes), the relay ends its processes and itself.
const RELAY_SOURCE = `
const { spawn } = require('node:child_process');
const running = new Map();
const send = (m, done) => { try { process.send(m, done); } catch { done?.(); } };
process.on('message', (m) => {
  if (m.kill) return void running.get(m.id)?.kill();
  let child;
  try {
    child = spawn(m.cmd, m.args, { cwd: m.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return send({ id: m.id, error: e.message });
  }
  running.set(m.id, child);
  let unsent = 0;
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (out) => {
    if (++unsent > ${MAX_UNSENT}) child.stdout.pause();
    send({ id: m.id, out }, () => { if (--unsent <= ${MAX_UNSENT}) child.stdout.resume(); });
  });
  child.stderr.on('data', (err) => send({ id: m.id, err }));
  child.on('error', (e) => send({ id: m.id, error: e.message }));
  child.on('close', (code) => { running.delete(m.id); send({ id: m.id, close: code }); });
});
process.on('disconnect', () => { for (const c of running.values()) c.kill(); process.exit(0); });
`;

interface RelayMessage {
  id: number;
  out?: string;
  err?: string;
  error?: string;
  close?: number | null;
}

/** Spawns from this process, as searches always started. */
export const directLauncher: Launcher = { run: runDirect, close() {} };

function runDirect(cmd: string, args: string[], cwd: string, signal: AbortSignal, sink: ProcessSink): void {
  const { spawn } = lazyRequire('node:child_process') as typeof import('node:child_process');
  const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (d: string) => sink.stdout(d));
  child.stderr.on('data', (d: string) => sink.stderr(d));
  child.on('error', (err) => sink.error(err));
  child.on('close', (code) => sink.close(code));
}

/**
 * The process-wide launcher: direct spawns while the server is small, the relay once it has grown (see
 * RELAY_FROM_RSS). The relay is started in the background the first time it would help; until it is up,
 * and if it cannot start or dies, processes are spawned directly. A relay that died is started again at
 * most twice.
 */
export function createLauncher(relayFrom = relayThreshold()): Launcher {
  let relay: ChildProcess | undefined;
  let ready = false;
  let starts = 0;
  let nextId = 0;
  const sinks = new Map<number, ProcessSink>();
  const settled = (id: number) => {
    sinks.delete(id);
    if (sinks.size === 0) relay?.channel?.unref();
  };
  const onMessage = (m: RelayMessage) => {
    const sink = sinks.get(m.id);
    if (!sink) return;
    if (m.out !== undefined) sink.stdout(m.out);
    else if (m.err !== undefined) sink.stderr(m.err);
    else if (m.error !== undefined) {
      // As with a direct spawn, an error ends what the caller waits for; a later close is not needed.
      settled(m.id);
      sink.error(new Error(m.error));
    } else if ('close' in m) {
      settled(m.id);
      sink.close(m.close ?? null);
    }
  };
  const lost = (child: ChildProcess) => {
    if (relay !== child) return;
    relay = undefined;
    ready = false;
    for (const [id, sink] of [...sinks]) {
      settled(id);
      sink.error(new Error('the search relay process ended'));
    }
  };
  const start = () => {
    if (relay || starts >= 3) return;
    starts++;
    const { spawn } = lazyRequire('node:child_process') as typeof import('node:child_process');
    const child = spawn(process.execPath, ['-e', RELAY_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    relay = child;
    child.unref();
    child.channel?.unref();
    child.once('spawn', () => {
      if (relay === child) ready = true;
    });
    child.on('message', onMessage);
    // 'error' can come more than once (a send on a closed channel, say).
    child.on('error', () => lost(child));
    child.once('exit', () => lost(child));
  };
  return {
    run(cmd, args, cwd, signal, sink) {
      if (!ready || !relay) {
        if (process.memoryUsage.rss() >= relayFrom) start();
        return runDirect(cmd, args, cwd, signal, sink);
      }
      if (signal.aborted) return sink.error(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      const id = nextId++;
      const r = relay;
      sinks.set(id, sink);
      r.channel?.ref();
      r.send({ id, cmd, args, cwd });
      signal.addEventListener(
        'abort',
        () => {
          if (!sinks.has(id)) return;
          settled(id);
          if (relay === r) r.send({ id, kill: true });
          sink.error(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
        },
        { once: true },
      );
    },
    close() {
      starts = 3;
      const r = relay;
      if (!r) return;
      lost(r);
      // Its end of the channel closing ends the relay, which first ends what it started (a signal would not).
      if (r.connected) r.disconnect();
      else r.kill();
    },
  };
}
