import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { OutputCapture, type ExecOutcome } from './output.js';
import { appendGitConfig, hardenedGitEnv, scanGitConfig, UNLISTED_GIT_OVERRIDES } from './git-env.js';
import { groupExists, groupMembers, type GroupRegistry } from './process-group.js';
import { CAN_WATCH_INPUT, watchForInput } from './input-wait.js';

export interface ExecRequest {
  command: string;
  cwd: string;
  signal: AbortSignal;
  /** Inactivity timeout; 0 disables it. */
  timeoutMs: number;
  groups: GroupRegistry;
  /** Called with each decoded piece of output while the command runs. */
  onOutput?: (text: string) => void;
  /** Directories a git command in it may read configuration from (see git-env.ts); none: no git. */
  gitDirs?: string[];
  /** Wraps the command line before it is spawned (the sandbox); absent: it runs as it is. */
  confine?: Confine;
}

export interface Launch {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Turns a command line into the one to spawn; `cleanup` runs once the process is gone and may add notes. */
export type Confine = (launch: Launch) => Promise<Launch & { cleanup: () => Promise<string[]> }>;

/** Keys the command must not see (the model API key is not passed on). */
const WITHHELD_ENV = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'];

/**
 * After the leader exits, output still in the pipe is read until the pipe closes; a background job
 * keeps the pipe open, so a short quiet period ends the wait instead.
 */
const DRAIN_QUIET_MS = 100;
/** …and a job that writes without pause cannot hold the result back longer than this. */
const DRAIN_MAX_MS = 1000;

/** Joins stderr to stdout inside bash; see executeCommand. */
const WRAPPER_PREFIX = 'exec 2>&1; ';

/** An `Error:` line the model sees names the user's command, not our wrapper around it. */
export function userFacing(message: string): string {
  return message.split(WRAPPER_PREFIX).join('');
}

/** The environment of every command: ours, minus secrets, with git's program-running keys pinned. */
export async function commandEnv(gitDirs?: readonly string[]): Promise<NodeJS.ProcessEnv> {
  const user: NodeJS.ProcessEnv = { ...process.env, GEMINI_CLI: '1' };
  for (const k of WITHHELD_ENV) delete user[k];
  const env = hardenedGitEnv(user);
  return appendGitConfig(env, gitDirs?.length ? await scanGitConfig(gitDirs, user) : UNLISTED_GIT_OVERRIDES);
}

/**
 * Runs `bash -c` as the leader of a new process group with stdin closed and no TTY. stderr is
 * joined to stdout inside bash (`exec 2>&1`) so both arrive through one pipe in the order written.
 */
export async function executeCommand(req: ExecRequest): Promise<ExecOutcome> {
  const launch = await prepareLaunch(req);
  if ('output' in launch) return launch;
  const outcome = await run(req, launch);
  const notes = launch.cleanup ? await launch.cleanup().catch((err) => [`sandbox cleanup: ${err.message}`]) : [];
  return notes.length ? { ...outcome, output: [outcome.output, ...notes].filter(Boolean).join('\n') } : outcome;
}

/** The command line to spawn for a request: bash with stderr joined, inside the sandbox when there is one. */
export async function prepareLaunch(
  req: Pick<ExecRequest, 'command' | 'cwd' | 'gitDirs' | 'confine'>,
  /** bash's arguments after `--norc` when not `-c <command>` (the terminal's wrapper). */
  bashArgs?: string[],
): Promise<(Launch & { cleanup?: () => Promise<string[]> }) | ExecOutcome> {
  const env = await commandEnv(req.gitDirs);
  // --norc: with its stdin a socket (held open to see a wait for input) and SHLVL under 2, bash takes itself
  // for a remote shell and runs /etc/bash.bashrc and ~/.bashrc before every command (~90 ms here, and
  // whatever the user's rc prints or changes); a command starts as it did with no stdin at all.
  const plain: Launch = {
    file: 'bash',
    args: ['--norc', ...(bashArgs ?? ['-c', `${WRAPPER_PREFIX}${req.command}`])],
    env,
    cwd: req.cwd,
  };
  try {
    return req.confine ? await req.confine(plain) : plain;
  } catch (err) {
    return failedToStart(`sandbox: ${(err as Error).message}`);
  }
}

function run(req: ExecRequest, launch: Launch): Promise<ExecOutcome> {
  return new Promise((resolve) => {
    const capture = new OutputCapture();
    let stopped: 'timeout' | 'abort' | { program: string } | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let streamsClosed = false;
    let settled = false;
    let quietTimer: NodeJS.Timeout | undefined;
    let drainCap: NodeJS.Timeout | undefined;
    let killing: Promise<void> | undefined;
    let lastOutputAt = Date.now();

    // Where the system can tell a wait for input, stdin is held open (and never written) so that such
    // a wait is found and ends the command; elsewhere it is at end-of-file, as with no terminal at all.
    const child = spawnLaunch(launch, CAN_WATCH_INPUT ? 'pipe' : 'ignore');
    if ('output' in child) return resolve(child);
    const pgid = child.pid;
    if (pgid !== undefined) req.groups.add(pgid);

    const stop = (why: NonNullable<typeof stopped>) => {
      stopped ??= why;
      if (pgid !== undefined && !killing) killing = req.groups.terminate(pgid);
    };
    const inactivity = req.timeoutMs > 0 ? setTimeout(() => stop('timeout'), req.timeoutMs) : undefined;
    const onAbort = () => stop('abort');
    if (req.signal.aborted) onAbort();
    else req.signal.addEventListener('abort', onAbort, { once: true });
    const releaseStdin = holdStdin(
      child,
      () => lastOutputAt,
      (program) => stop({ program }),
    );

    const onData = (chunk: Buffer) => {
      if (settled) return; // a background job still writing after the result: drained, not kept
      inactivity?.refresh();
      lastOutputAt = Date.now();
      const text = capture.push(chunk);
      if (text) req.onOutput?.(text);
      if (exit) armQuiet();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);

    const armQuiet = () => {
      if (quietTimer) quietTimer.refresh();
      else quietTimer = setTimeout(() => void finish(), DRAIN_QUIET_MS);
    };

    const finish = async (spawnError?: Error) => {
      if (settled) return;
      settled = true;
      for (const t of [inactivity, quietTimer, drainCap]) clearTimeout(t);
      req.signal.removeEventListener('abort', onAbort);
      releaseStdin();
      if (killing) await killing;
      const backgroundPids = pgid !== undefined && !killing ? leftInBackground(pgid, req.groups) : [];
      // Background jobs keep running with their pipe open: keep it drained without holding the loop.
      if (!streamsClosed) for (const s of [child.stdout, child.stderr]) (s as { unref?: () => void } | null)?.unref?.();
      resolve({
        output: capture.finish(),
        shown: capture.shown(),
        error: spawnError && userFacing(spawnError.message),
        exitCode: exit?.code ?? null,
        signal: exit?.signal ? (constants.signals[exit.signal] ?? null) : null,
        pgid,
        backgroundPids,
        timedOut: stopped === 'timeout',
        aborted: stopped === 'abort',
        ...(typeof stopped === 'object' ? { wantedInput: stopped.program } : {}),
      });
    };

    child.on('error', (err) => {
      // Spawn failures (bash missing, cwd gone) never start a process.
      if (child.pid === undefined) void finish(err);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (streamsClosed) return void finish();
      armQuiet();
      drainCap = setTimeout(() => void finish(), DRAIN_MAX_MS);
    });
    child.on('close', () => {
      streamsClosed = true;
      // The last background job let go of the pipe: the group is usually gone now.
      if (settled && !killing) forgetIfEmpty(pgid, req.groups);
      if (exit || pgid === undefined) void finish();
    });
  });
}

function forgetIfEmpty(pgid: number | undefined, groups: GroupRegistry): void {
  if (pgid !== undefined && groups.has(pgid) && groupMembers(pgid).length === 0) groups.delete(pgid);
}

/**
 * Watches the command's held-open stdin for a process waiting on it (`onWait` gets the program's name).
 * The returned function ends the watch and closes stdin: whatever the command left running reads
 * end-of-file from then on instead of waiting forever.
 */
function holdStdin(child: ChildProcess, lastOutput: () => number, onWait: (program: string) => void): () => void {
  if (!child.stdin || child.pid === undefined) return () => undefined;
  child.stdin.on('error', () => undefined);
  const stopWatch = watchForInput(child.pid, lastOutput, (wait) => onWait(wait.program));
  return () => {
    stopWatch();
    child.stdin?.destroy();
  };
}

export function spawnLaunch(launch: Launch, stdin: 'pipe' | 'ignore' = 'ignore'): ChildProcess | ExecOutcome {
  try {
    return spawn(launch.file, launch.args, {
      cwd: launch.cwd,
      env: launch.env,
      stdio: [stdin, 'pipe', 'pipe'],
      detached: true,
    });
  } catch (err) {
    // Some spawn failures throw instead of emitting 'error' (E2BIG: a command over the kernel's
    // 128 KiB argument limit); they are the same process-level error for the model.
    return failedToStart(userFacing((err as Error).message));
  }
}

function failedToStart(error: string): ExecOutcome {
  return { output: '', error, exitCode: null, signal: null, backgroundPids: [], timedOut: false, aborted: false };
}

/** The leader is gone; whatever is still in its group was put in the background (none: the group is done). */
export function leftInBackground(pgid: number, groups: GroupRegistry): number[] {
  const left = groupExists(pgid) ? groupMembers(pgid).filter((p) => p !== pgid) : [];
  if (left.length === 0) groups.delete(pgid);
  return left;
}
