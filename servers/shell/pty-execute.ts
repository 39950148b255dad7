import type { IPty } from '@lydell/node-pty';
import stripAnsi from 'strip-ansi';
import { lazyRequire } from '../../protocol/lazy-require.js';
import { TerminalScreen } from '../../protocol/terminal-screen.js';
import { type ExecRequest, type Launch, leftInBackground, prepareLaunch, userFacing } from './execute.js';
import { CAPTURE_WARNING, type ExecOutcome, MAX_CAPTURE_BYTES } from './output.js';
import type { PtySessions } from './pty-sessions.js';

export interface PtyRequest extends Omit<ExecRequest, 'onOutput'> {
  cols: number;
  rows: number;
  /** Where a client finds the running command to type into it. */
  sessions: PtySessions;
  /** Called with the leader's pid once it runs, and with each piece of output as the terminal received it. */
  onOutput: (pid: number, data: string) => void;
}

/**
 * Runs the command line in a pseudo-terminal a person can type into (through `write_to_shell`): the same
 * bash, environment, sandbox and process-group handling as `executeCommand`, but nothing stops it for
 * waiting on input. The output is what the terminal showed, rendered by a terminal emulator.
 */
export async function executeInPty(req: PtyRequest): Promise<ExecOutcome> {
  const launch = await prepareLaunch(req);
  if ('output' in launch) return launch;
  const outcome = await runPty(req, launch);
  const notes = launch.cleanup ? await launch.cleanup().catch((err) => [`sandbox cleanup: ${err.message}`]) : [];
  return notes.length ? { ...outcome, output: [outcome.output, ...notes].filter(Boolean).join('\n') } : outcome;
}

function spawnPty(req: PtyRequest, launch: Launch): IPty | ExecOutcome {
  try {
    const pty = lazyRequire('@lydell/node-pty') as typeof import('@lydell/node-pty');
    return pty.spawn(launch.file, launch.args, {
      name: 'xterm-256color',
      cols: req.cols,
      rows: req.rows,
      cwd: launch.cwd,
      env: { ...launch.env, TERM: 'xterm-256color' } as Record<string, string>,
    });
  } catch (err) {
    return { output: '', error: userFacing((err as Error).message), ...NOT_RUN };
  }
}

const NOT_RUN = { exitCode: null, signal: null, backgroundPids: [], timedOut: false, aborted: false };

function runPty(req: PtyRequest, launch: Launch): Promise<ExecOutcome> {
  return new Promise((resolve) => {
    const child = spawnPty(req, launch);
    if ('output' in child) return resolve(child);
    // node-pty makes the child the leader of a new session, so its pid is its process group's id.
    const pgid = child.pid;
    req.groups.add(pgid);
    const screen = new TerminalScreen(req.cols, req.rows);
    let bytes = 0;
    let stopped: 'timeout' | 'abort' | undefined;
    let killing: Promise<void> | undefined;
    const stop = (why: 'timeout' | 'abort') => {
      stopped ??= why;
      killing ??= req.groups.terminate(pgid);
    };
    const inactivity = req.timeoutMs > 0 ? setTimeout(() => stop('timeout'), req.timeoutMs) : undefined;
    const onAbort = () => stop('abort');
    if (req.signal.aborted) onAbort();
    else req.signal.addEventListener('abort', onAbort, { once: true });
    req.sessions.add(pgid, {
      // Someone typing is activity too: a prompt answered slowly is not an idle command.
      write: (data) => {
        inactivity?.refresh();
        child.write(data);
      },
      resize: (cols, rows) => {
        child.resize(cols, rows);
        screen.resize(cols, rows);
      },
    });
    child.onData((data) => {
      inactivity?.refresh();
      if (bytes > MAX_CAPTURE_BYTES) return;
      bytes += Buffer.byteLength(data);
      screen.write(data);
      req.onOutput(pgid, data);
    });
    child.onExit(async ({ exitCode, signal }) => {
      clearTimeout(inactivity);
      req.signal.removeEventListener('abort', onAbort);
      req.sessions.delete(pgid);
      if (killing) await killing;
      const backgroundPids = killing ? [] : leftInBackground(pgid, req.groups);
      await screen.settled();
      const text = stripAnsi(screen.text()).trim();
      screen.dispose();
      resolve({
        output: bytes > MAX_CAPTURE_BYTES ? text + CAPTURE_WARNING : text,
        shown: text,
        exitCode: signal ? null : exitCode,
        signal: signal || null,
        pgid,
        backgroundPids,
        timedOut: stopped === 'timeout',
        aborted: stopped === 'abort',
      });
    });
  });
}
