import { spawn } from 'node:child_process';
import { signalProcessGroup } from '../servers/common/process-group.js';

export const OUTPUT_LIMIT = 10 * 1024 * 1024;

export interface RunOptions {
  program: string;
  args: string[];
  cwd: string;
  /** Written to stdin, which is then closed (empty stdin when absent). */
  input?: string;
  /** 0 or absent: no limit. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Per stream; exceeding it kills the process group. */
  maxBytes?: number;
  /** Between SIGTERM and SIGKILL of the group. */
  killGraceMs?: number;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  /** Exit code, null when killed by a signal or never started. */
  code: number | null;
  /** Signal name that ended the process, e.g. SIGTERM. */
  signal: string | null;
  /** Spawn failure message (ENOENT, EACCES, ...). */
  spawnError?: string;
  /** Why the bridge ended the process itself, if it did. */
  killedFor?: 'timeout' | 'aborted' | 'overflow';
  overflowStream?: 'stdout' | 'stderr';
}

/**
 * Runs a program without a shell in its own process group (detached), with bounded output. Timeout,
 * abort and overflow kill the whole group — SIGTERM, then SIGKILL after the grace period even when the
 * leader already exited — so helpers the program started do not outlive the call.
 */
export function runProcess(opts: RunOptions): Promise<RunResult> {
  const maxBytes = opts.maxBytes ?? OUTPUT_LIMIT;
  const grace = opts.killGraceMs ?? 2000;
  return new Promise((resolve) => {
    if (opts.signal?.aborted) {
      resolve({ stdout: '', stderr: '', code: null, signal: null, killedFor: 'aborted' });
      return;
    }
    const child = spawn(opts.program, opts.args, { cwd: opts.cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const sizes = { stdout: 0, stderr: 0 };
    const result: Omit<RunResult, 'stdout' | 'stderr' | 'code' | 'signal'> = {};
    let done = false;
    let timer: NodeJS.Timeout | undefined;

    const killGroup = (reason: NonNullable<RunResult['killedFor']>) => {
      if (result.killedFor || done) return;
      result.killedFor = reason;
      signalGroup('SIGTERM');
      // Not cleared on close: group members that ignored SIGTERM must not survive the leader.
      setTimeout(() => signalGroup('SIGKILL'), grace).unref();
    };
    const signalGroup = (sig: NodeJS.Signals) => {
      if (child.pid !== undefined) signalProcessGroup(child.pid, sig);
    };
    const onAbort = () => killGroup('aborted');
    const finish = (code: number | null, signal: string | null) => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      resolve({
        ...result,
        stdout: Buffer.concat(chunks.stdout).toString('utf8'),
        stderr: Buffer.concat(chunks.stderr).toString('utf8'),
        code,
        signal,
      });
    };

    for (const name of ['stdout', 'stderr'] as const) {
      child[name].on('data', (chunk: Buffer) => {
        if (result.killedFor === 'overflow') return;
        const room = maxBytes - sizes[name];
        if (chunk.length > room) {
          chunks[name].push(chunk.subarray(0, Math.max(0, room)));
          sizes[name] = maxBytes;
          result.overflowStream = name;
          killGroup('overflow');
          return;
        }
        chunks[name].push(chunk);
        sizes[name] += chunk.length;
      });
    }
    child.on('error', (err) => {
      result.spawnError = err.message;
      // A failed spawn has no pid and may never emit 'close'.
      if (child.pid === undefined) finish(null, null);
    });
    child.on('close', (code, signal) => finish(code, signal));
    // A program that never reads stdin makes the write fail with EPIPE; that is not the call's failure.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');

    if (opts.timeoutMs && opts.timeoutMs > 0) timer = setTimeout(() => killGroup('timeout'), opts.timeoutMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
