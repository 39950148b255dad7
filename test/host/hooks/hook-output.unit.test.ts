import { describe, expect, it } from 'vitest';
import type { HookSpec } from '../../../host/hooks/hook-config.js';
import { readOutput } from '../../../host/hooks/hook-output.js';
import type { HookRun } from '../../../host/hooks/hook-runner.js';

const gemini: HookSpec = {
  event: 'BeforeTool',
  writtenEvent: 'BeforeTool',
  format: 'gemini',
  sequential: false,
  command: './h.sh',
  timeoutMs: 1000,
  source: 'user',
  file: '/s.json',
};
const claude = (writtenEvent = 'PreToolUse'): HookSpec => ({ ...gemini, format: 'claude', writtenEvent });
const run = (exitCode: number | null, stdout = '', stderr = '', extra: Partial<HookRun> = {}): HookRun => ({
  exitCode,
  stdout,
  stderr,
  timedOut: false,
  durationMs: 1,
  ...extra,
});

describe('readOutput: Gemini CLI hooks', () => {
  it('reads plain text as a message at exit 0 and a warning at exit 1, stderr when stdout is empty', () => {
    expect(readOutput(gemini, run(0, ' hello \n'))).toEqual({ systemMessage: 'hello' });
    expect(readOutput(gemini, run(1, '', 'careful'))).toEqual({ systemMessage: 'Warning: careful' });
    expect(readOutput(gemini, run(0))).toEqual({});
  });

  it('blocks at exit 2 with the JSON reason, else stderr, else stdout, else the code', () => {
    expect(readOutput(gemini, run(2, '{"reason":"no secrets"}', 'err')).block).toBe('no secrets');
    expect(readOutput(gemini, run(2, 'out', 'err')).block).toBe('err');
    expect(readOutput(gemini, run(2, 'out')).block).toBe('out');
    expect(readOutput(gemini, run(2))).toEqual({ block: 'hook exited with code 2' });
  });

  it('blocks on any higher code too, and reports it as a failure (127: command not found)', () => {
    expect(readOutput(gemini, run(127, '', 'sh: ./h.sh: not found'))).toEqual({
      block: 'sh: ./h.sh: not found',
      failure: 'exit code 127: sh: ./h.sh: not found',
    });
  });

  it('reads the JSON decision fields', () => {
    const json = {
      decision: 'deny',
      reason: 'nope',
      systemMessage: 'shown',
      hookSpecificOutput: { additionalContext: 'ctx', tool_input: { a: 1 }, clearContext: true },
    };
    expect(readOutput(gemini, run(0, JSON.stringify(json)))).toEqual({
      json,
      block: 'nope',
      systemMessage: 'shown',
      context: 'ctx',
      updatedInput: { a: 1 },
      clearContext: true,
    });
  });

  it('stops with stopReason, asks with its message, and reads a tail call', () => {
    const out = readOutput(
      gemini,
      run(
        0,
        JSON.stringify({
          continue: false,
          stopReason: 'done',
          decision: 'ask',
          reason: 'why',
          hookSpecificOutput: { tailToolCallRequest: { name: 'read_file', args: 'bad' } },
        }),
      ),
    );
    expect([out.stop, out.ask, out.askReason, out.tail]).toEqual([
      'done',
      true,
      'why',
      { name: 'read_file', args: {} },
    ]);
    expect(readOutput(gemini, run(0, '{"continue":false}')).stop).toBe('No reason provided');
    expect(
      readOutput(gemini, run(0, '{"hookSpecificOutput":{"tailToolCallRequest":{"name":""}}}')).tail,
    ).toBeUndefined();
  });

  it('accepts JSON printed as a JSON string, and treats JSON that is not an object as text', () => {
    expect(readOutput(gemini, run(0, JSON.stringify('{"decision":"block","reason":"r"}'))).block).toBe('r');
    expect(readOutput(gemini, run(0, '[1,2]'))).toEqual({ systemMessage: '[1,2]' });
    expect(readOutput(gemini, run(0, '{"decision":'))).toEqual({ systemMessage: '{"decision":' });
  });

  it('ignores a hook that timed out or could not start, and takes a missing exit code as 1', () => {
    expect(readOutput(gemini, run(2, 'x', 'y', { timedOut: true }))).toEqual({});
    expect(readOutput(gemini, run(2, 'x', 'y', { error: 'spawn ENOENT' }))).toEqual({});
    expect(readOutput(gemini, run(null, 'killed'))).toEqual({ systemMessage: 'Warning: killed' });
  });
});

describe('readOutput: Claude Code hooks', () => {
  it('blocks at exit 2 with stderr, reports other codes as failures and lets the call go on', () => {
    expect(readOutput(claude(), run(2, 'out', 'Use rg, not grep'))).toEqual({ block: 'Use rg, not grep' });
    expect(readOutput(claude(), run(2))).toEqual({ block: 'blocked by hook (exit code 2)' });
    expect(readOutput(claude(), run(1, '{"decision":"block"}', 'oops'))).toEqual({ failure: 'exit code 1: oops' });
  });

  it('reads permissionDecision over decision, with its reason', () => {
    const deny = {
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'r' },
      decision: 'approve',
    };
    expect(readOutput(claude(), run(0, JSON.stringify(deny))).block).toBe('r');
    expect(readOutput(claude(), run(0, '{"decision":"approve"}')).allow).toBe(true);
    const ask = readOutput(claude(), run(0, '{"hookSpecificOutput":{"permissionDecision":"ask"},"systemMessage":"m"}'));
    expect([ask.ask, ask.askReason, ask.systemMessage]).toEqual([true, 'm', 'm']);
    expect(readOutput(claude(), run(0, '{"continue":false}')).stop).toBe('Stopped by hook');
  });

  it('reads updatedInput and additionalContext', () => {
    const out = readOutput(
      claude(),
      run(0, '{"hookSpecificOutput":{"updatedInput":{"command":"ls"},"additionalContext":"c"}}'),
    );
    expect([out.updatedInput, out.context]).toEqual([{ command: 'ls' }, 'c']);
  });

  it('feeds plain stdout to the model only for UserPromptSubmit and SessionStart', () => {
    expect(readOutput(claude('UserPromptSubmit'), run(0, 'today is Friday'))).toEqual({ context: 'today is Friday' });
    expect(readOutput(claude('SessionStart'), run(0, 'ctx'))).toEqual({ context: 'ctx' });
    expect(readOutput(claude('PreToolUse'), run(0, 'ignored'))).toEqual({});
  });
});
