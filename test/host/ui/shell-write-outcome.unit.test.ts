import { describe, expect, it } from 'vitest';
import { McpCallError } from '../../../host/mcp/errors.js';
import { shellWriteOutcome } from '../../../host/ui/shell-write-outcome.js';
import { errorResult, textResult } from '../../../servers/common/result.js';

const NOT_RUNNING =
  'No command of this session with PID 42 is running in a terminal: it has ended, or it was not started in one.';

describe('shellWriteOutcome: did a write_to_shell call reach the command', () => {
  it('a plain result is delivered', () => {
    expect(shellWriteOutcome(textResult('Wrote 3 characters to process 42.'))).toEqual({ ok: true });
  });

  it("the tool's not-running error: not delivered, the command is gone, the server's words kept", () => {
    expect(shellWriteOutcome(errorResult(NOT_RUNNING, 'execution_failed'))).toEqual({
      ok: false,
      reason: NOT_RUNNING,
      gone: true,
    });
  });

  it('an isError for bad arguments: not delivered, but the command still runs', () => {
    const out = shellWriteOutcome(errorResult('Input too long: at most 65536 characters.', 'invalid_tool_params'));
    expect(out).toEqual({ ok: false, reason: 'Input too long: at most 65536 characters.', gone: false });
  });

  it('an isError with no text still has a reason', () => {
    expect(shellWriteOutcome({ content: [], isError: true })).toEqual({
      ok: false,
      reason: 'the server reported an error',
      gone: false,
    });
  });

  it('a server that crashed or is not connected took the command with it; a timeout did not', () => {
    const crashed = new McpCallError('crashed', 'Server "shell" exited (code 137).', 'shell');
    expect(shellWriteOutcome(undefined, crashed)).toEqual({ ok: false, reason: crashed.message, gone: true });
    const down = new McpCallError('not_connected', 'Server "shell" is not connected.', 'shell');
    expect(shellWriteOutcome(undefined, down)).toMatchObject({ ok: false, gone: true });
    const slow = new McpCallError('timeout', 'Server "shell" did not answer in 60s.', 'shell');
    expect(shellWriteOutcome(undefined, slow)).toEqual({ ok: false, reason: slow.message, gone: false });
  });

  it('any other thrown value is not delivered, with its message or text', () => {
    expect(shellWriteOutcome(undefined, new Error('socket closed'))).toEqual({
      ok: false,
      reason: 'socket closed',
      gone: false,
    });
    expect(shellWriteOutcome(undefined, 'boom')).toEqual({ ok: false, reason: 'boom', gone: false });
  });
});
