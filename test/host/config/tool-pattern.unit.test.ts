import { describe, expect, it } from 'vitest';
import { parseToolPattern } from '../../../host/config/tool-pattern.js';

describe('parseToolPattern: one reading of a tool entry for the MCP filter, the registry and policy', () => {
  it('splits a name from its parenthesised argument', () => {
    expect(parseToolPattern('run_shell_command(git log)')).toEqual({ name: 'run_shell_command', arg: 'git log' });
    expect(parseToolPattern('  shell__run_shell_command (npm test)  ')).toEqual({
      name: 'shell__run_shell_command',
      arg: 'npm test',
    });
    expect(parseToolPattern('read_file')).toEqual({ name: 'read_file' });
    expect(parseToolPattern('name()')).toEqual({ name: 'name', arg: '' });
  });

  it('keeps nested parentheses in the argument, and treats an unbalanced entry as a name', () => {
    expect(parseToolPattern('run_shell_command(echo $(date))')).toEqual({
      name: 'run_shell_command',
      arg: 'echo $(date)',
    });
    expect(parseToolPattern('broken(')).toEqual({ name: 'broken(' });
  });
});
