import type { IPty } from '@lydell/node-pty';
import stripAnsi from 'strip-ansi';
import { lazyRequire, randomHex } from '../../protocol/lazy-require.js';
import { TerminalScreen } from '../../protocol/terminal-screen.js';
import { type ExecRequest, type Launch, leftInBackground, prepareLaunch, userFacing } from './execute.js';
import { type ExecOutcome, MAX_CAPTURE_BYTES, OutputCapture } from './output.js';
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
  const nonce = randomHex(8);
  const launch = await prepareLaunch(req, ['-c', DRAIN_SCRIPT, 'bash', req.command, nonce]);
  if ('output' in launch) return launch;
  const outcome = await runPty(req, launch, `\x1b]777;gemini-mcp-done;${nonce}\x07`);
  const notes = launch.cleanup ? await launch.cleanup().catch((err) => [`sandbox cleanup: ${err.message}`]) : [];
  return notes.length ? { ...outcome, output: [outcome.output, ...notes].filter(Boolean).join('\n') } : outcome;
}

/**
 * Whether this machine can open a pseudo-terminal: node-pty ships prebuilt for the usual systems only (not,
 * say, musl). Without it a command runs with pipes as for any caller without a terminal, and one that
 * waits for input is stopped with a message, instead of every command failing.
 */
export function canOpenTerminal(): boolean {
  try {
    lazyRequire('@lydell/node-pty');
    return true;
  } catch {
    return false;
  }
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

/**
 * The command runs in a subshell; then bash prints a marker the terminal ignores (an unknown OSC) and waits
 * for one key before it exits with the command's status. When the session's leader exits, Linux hangs the
 * terminal up and throws away output not yet read: the server sends the key only once the marker, and so
 * everything before it, has arrived. (`eval` inside the subshell: a syntax error is the command's, and the
 * wait still comes.)
 */
const DRAIN_SCRIPT = `( eval "$1" ); s=$?; printf '\\033]777;gemini-mcp-done;%s\\007' "$2"; read -rsn1 _; exit $s`;

const NOT_RUN = { exitCode: null, signal: null, backgroundPids: [], timedOut: false, aborted: false };

function runPty(req: PtyRequest, launch: Launch, marker: string): Promise<ExecOutcome> {
  return new Promise((resolve) => {
    const child = spawnPty(req, launch);
    if ('output' in child) return resolve(child);
    // node-pty makes the child the leader of a new session, so its pid is its process group's id.
    const pgid = child.pid;
    req.groups.add(pgid);
    const recording = new Recording(req.cols, req.rows);
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
        recording.resize(cols, rows);
      },
    });
    child.onData((data) => {
      inactivity?.refresh();
      if (recording.add(data)) req.onOutput(pgid, data);
      // Everything was read: bash may exit (a newline ends its one-key read in any terminal mode).
      if (recording.saw(marker, data)) child.write('\n');
    });
    child.onExit(async ({ exitCode, signal }) => {
      clearTimeout(inactivity);
      req.signal.removeEventListener('abort', onAbort);
      req.sessions.delete(pgid);
      if (killing) await killing;
      const backgroundPids = killing ? [] : leftInBackground(pgid, req.groups);
      const { output, shown } = await recording.text();
      resolve({
        output,
        shown,
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

/**
 * What a command's terminal received, rendered once it ended: node-pty gives the last output only a short
 * while after the command exits, so the loop must stay free to read it rather than parse as it comes.
 */
class Recording {
  private readonly events: (string | { cols: number; rows: number })[] = [];
  /** The plain text too (16 MB at most, as with pipes), for output longer than the emulator's scrollback. */
  private readonly capture = new OutputCapture();
  private bytes = 0;
  /** The end of the output so far, long enough to hold a marker that came in pieces. */
  private tail = '';
  private marked = false;

  constructor(
    private readonly cols: number,
    private readonly rows: number,
  ) {}

  /** Keeps a piece of output; false once 16 MB were kept (the rest is dropped). */
  add(data: string): boolean {
    if (this.bytes > MAX_CAPTURE_BYTES) return false;
    const raw = Buffer.from(data);
    this.bytes += raw.length;
    // A full-screen program's escapes may look binary to the capture's sniff: the emulator gets them all.
    this.capture.push(raw);
    this.events.push(data);
    return true;
  }

  resize(cols: number, rows: number): void {
    this.events.push({ cols, rows });
  }

  /** Whether the latest output completes `marker` (which may have come in pieces); true once. */
  saw(marker: string, data: string): boolean {
    if (this.marked) return false;
    this.tail = (this.tail + data).slice(-2 * marker.length);
    this.marked = this.tail.includes(marker);
    return this.marked;
  }

  /**
   * What the user saw, unless more was printed than the emulator keeps: then all of it, escapes removed. As
   * with pipes, the model's text is trimmed and the user's keeps a first line's indentation.
   */
  async text(): Promise<{ output: string; shown: string }> {
    const screen = new TerminalScreen(this.cols, this.rows);
    try {
      for (const e of this.events) {
        if (typeof e === 'string') screen.write(e);
        else {
          // The emulator parses writes later but resizes at once: what came before is parsed first.
          await screen.settled();
          screen.resize(e.cols, e.rows);
        }
      }
      await screen.settled();
      const lf = (t: string) => t.replace(/\r+\n/g, '\n');
      if (screen.overflowed()) return { output: lf(this.capture.finish()), shown: lf(this.capture.shown()) };
      const text = stripAnsi(screen.text());
      return { output: text.trim(), shown: text.replace(/^(?:[ \t]*\n)+/, '') };
    } finally {
      screen.dispose();
    }
  }
}
