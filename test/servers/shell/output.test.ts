import { describe, expect, it } from 'vitest';
import { displayOf, formatOutcome, type ExecOutcome } from '../../../servers/shell/output.js';

const base: ExecOutcome = {
  output: '',
  exitCode: 0,
  signal: null,
  backgroundPids: [],
  timedOut: false,
  aborted: false,
};

describe('shell result text', () => {
  it('orders the lines Output, Error, Exit Code, Signal, Background PIDs, Process Group PGID', () => {
    const all = { ...base, output: 'o', error: 'boom', exitCode: 2, signal: 15, backgroundPids: [11, 12], pgid: 10 };
    expect(formatOutcome(all, 300_000)).toBe(
      'Output: o\nError: boom\nExit Code: 2\nSignal: 15\nBackground PIDs: 11, 12\nProcess Group PGID: 10',
    );
    expect(formatOutcome({ ...base, exitCode: null }, 300_000)).toBe('Output: (empty)');
  });

  it('words the inactivity timeout in minutes with one decimal', () => {
    const head = 'Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output.';
    expect(formatOutcome({ ...base, timedOut: true, pgid: 3 }, 300_000)).toBe(
      `${head} There was no output before it was cancelled.`,
    );
    expect(formatOutcome({ ...base, timedOut: true, output: 'partial' }, 300_000)).toBe(
      `${head} Below is the output before it was cancelled:\npartial`,
    );
    expect(formatOutcome({ ...base, timedOut: true }, 90_000)).toContain('timeout of 1.5 minutes');
  });

  it('summarises for display: output, else signal, error, exit code, else empty', () => {
    expect(displayOf({ ...base, output: 'x', signal: 9 })).toBe('x');
    expect(displayOf({ ...base, signal: 9, exitCode: null })).toBe('Command terminated by signal: 9');
    expect(displayOf({ ...base, error: 'spawn bash ENOENT', exitCode: null })).toBe(
      'Command failed: spawn bash ENOENT',
    );
    expect(displayOf({ ...base, exitCode: 4 })).toBe('Command exited with code: 4');
    expect(displayOf(base)).toBe('');
  });
});
