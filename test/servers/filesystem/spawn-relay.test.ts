import { describe, expect, it } from 'vitest';
import { createLauncher, type Launcher, relayThreshold } from '../../../servers/filesystem/lib/spawn-relay.js';
import { isAlive, waitFor } from '../../helpers/wait.js';

interface Ran {
  out: string;
  err: string;
  code?: number | null;
  error?: Error;
}

/** Runs a command through the launcher; resolves on close, or on error (as the search engines do). */
function run(
  l: Launcher,
  cmd: string,
  args: string[],
  signal = new AbortController().signal,
  onOut?: (out: string) => void,
): Promise<Ran> {
  return new Promise((resolve) => {
    const r: Ran = { out: '', err: '' };
    l.run(cmd, args, '/', signal, {
      stdout: (t) => {
        r.out += t;
        onOut?.(r.out);
      },
      stderr: (t) => (r.err += t),
      error: (error) => resolve({ ...r, error }),
      close: (code) => resolve({ ...r, code }),
    });
  });
}

/** Starts `script` in `sh`, which first prints its pid: `pid` resolves once it is out, `ended` as `run`. */
function started(l: Launcher, script: string, signal = new AbortController().signal) {
  let pid!: (n: number) => void;
  const printed = new Promise<number>((r) => (pid = r));
  const ended = run(l, 'sh', ['-c', `echo $$; ${script}`], signal, (out) => {
    if (out.includes('\n')) pid(Number(out.split('\n')[0]));
  });
  return { pid: printed, ended };
}

/** The pid of the process that started `sh`: this one for a direct spawn, the relay's once relayed. */
const parentOf = async (l: Launcher) => Number((await run(l, 'sh', ['-c', 'echo $PPID'])).out.trim());

/** A launcher that relays from its first run on, once the relay is up (the first run starts it). */
async function relayed(): Promise<{ l: Launcher; relayPid: number }> {
  const l = createLauncher(0);
  expect(await parentOf(l)).toBe(process.pid);
  let relayPid = process.pid;
  await waitFor(async () => (relayPid = await parentOf(l)) !== process.pid, 'a run through the relay');
  return { l, relayPid };
}

describe('the search process launcher', () => {
  it('spawns directly while the server is below the threshold', async () => {
    const l = createLauncher(Number.MAX_SAFE_INTEGER);
    for (let i = 0; i < 3; i++) expect(await parentOf(l)).toBe(process.pid);
    l.close();
  });

  it('through the relay: output whole and in order, stderr, exit codes, a missing command', async () => {
    const { l, relayPid } = await relayed();
    try {
      expect(isAlive(relayPid)).toBe(true);
      // Far more output than one message (the relay pauses the command while its messages are unsent).
      const seq = await run(l, 'seq', ['1', '300000']);
      expect(seq.code).toBe(0);
      const lines = seq.out.trimEnd().split('\n');
      expect(lines.length).toBe(300000);
      expect(lines.every((n, i) => Number(n) === i + 1)).toBe(true);
      const failed = await run(l, 'sh', ['-c', 'echo out; echo oops >&2; exit 3']);
      expect(failed).toMatchObject({ out: 'out\n', err: 'oops\n', code: 3 });
      const utf8 = await run(l, 'sh', ['-c', "printf 'héllo wörld ✓\\n%.0s' $(seq 1 5000)"]);
      expect(utf8.out.split('\n').filter((x) => x === 'héllo wörld ✓').length).toBe(5000);
      const missing = await run(l, 'no-such-command-gmc', []);
      expect(missing.error?.message).toMatch(/ENOENT/);
      // Closing fails what still runs, and later runs spawn directly.
      const sleeping = started(l, 'exec sleep 60');
      const pid = await sleeping.pid;
      l.close();
      expect((await sleeping.ended).error?.message).toMatch(/relay process ended/);
      await waitFor(() => !isAlive(pid), 'the relay to end what it started');
      expect(await parentOf(l)).toBe(process.pid);
    } finally {
      l.close();
    }
    await waitFor(() => !isAlive(relayPid), 'the relay to end with close()');
  });

  it('an abort kills the relayed command and reports the abort', async () => {
    const { l } = await relayed();
    try {
      const ac = new AbortController();
      const sleeping = started(l, 'exec sleep 60', ac.signal);
      const pid = await sleeping.pid;
      ac.abort(new Error('stop it'));
      expect((await sleeping.ended).error?.message).toBe('stop it');
      await waitFor(() => !isAlive(pid), 'the aborted command to be killed');
      // An already aborted signal starts nothing.
      expect((await run(l, 'true', [], AbortSignal.abort(new Error('late')))).error?.message).toBe('late');
    } finally {
      l.close();
    }
  });

  it('a relay that dies fails its running commands, and the next runs start one again', async () => {
    const { l, relayPid } = await relayed();
    try {
      // It writes, so that it ends (SIGPIPE) once the killed relay's end of its pipe is gone.
      const ticking = started(l, 'while echo tick; do sleep 0.1; done');
      const pid = await ticking.pid;
      process.kill(relayPid, 'SIGKILL');
      expect((await ticking.ended).error?.message).toMatch(/relay process ended/);
      await waitFor(() => !isAlive(pid), 'the orphaned command to end on its closed pipe');
      // Direct while a new relay starts, then through it.
      let next = relayPid;
      await waitFor(async () => {
        next = await parentOf(l);
        return next !== process.pid && next !== relayPid;
      }, 'a run through a new relay');
      expect(isAlive(next)).toBe(true);
    } finally {
      l.close();
    }
  });

  it('the threshold comes from GEMINI_MCP_SEARCH_RELAY_MIB when it is a number', () => {
    expect(relayThreshold({ GEMINI_MCP_SEARCH_RELAY_MIB: '0' })).toBe(0);
    expect(relayThreshold({ GEMINI_MCP_SEARCH_RELAY_MIB: '200' })).toBe(200 * 1024 * 1024);
    expect(relayThreshold({ GEMINI_MCP_SEARCH_RELAY_MIB: 'lots' })).toBe(96 * 1024 * 1024);
    expect(relayThreshold({})).toBe(96 * 1024 * 1024);
  });
});
