import * as z from 'zod';
import { textResult, ToolError } from '../../common/result.js';
import { defineTool, type ToolDefinition } from '../../common/tool.js';
import type { PtySessions } from '../pty-sessions.js';

/** One write at most: keystrokes and a pasted paragraph, not a file. */
const MAX_INPUT_CHARS = 64 * 1024;

/**
 * Types into a command this session runs in a pseudo-terminal (one started by `run_shell_command` with the
 * call's `_meta` terminal size), and resizes its terminal. The client calls it for a person's keystrokes;
 * the command was approved when it started, so typing into it asks nothing again.
 */
export function createWriteToShellTool(ptys: PtySessions): ToolDefinition {
  return defineTool({
    name: 'write_to_shell',
    title: 'Write To Shell',
    description:
      "Sends input to a running shell command's terminal, as if typed: text, with control keys as their characters (`\\r` Enter, `\\x03` Ctrl-C, `\\x1b` Esc, `\\x7f` Backspace). Works only on a command of this session started in a terminal (`pid` from its progress), while it runs. `cols` and `rows` resize the terminal.",
    inputSchema: z.object({
      pid: z.number().int().describe('The process ID of the running command (its process group).'),
      input: z.string().max(MAX_INPUT_CHARS).optional().describe('What to type, control characters included.'),
      cols: z.number().int().min(2).max(1000).optional().describe('New terminal width in columns.'),
      rows: z.number().int().min(2).max(500).optional().describe('New terminal height in rows.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    handler: async (args) => {
      const pty = ptys.get(args.pid);
      // The chat reads `execution_failed` from this tool as "the command is gone": keep it for this case alone.
      if (!pty) {
        throw new ToolError(
          `No command of this session with PID ${args.pid} is running in a terminal: it has ended, or it was not started in one.`,
          'execution_failed',
        );
      }
      if ((args.cols === undefined) !== (args.rows === undefined))
        throw new ToolError('Give both cols and rows to resize, or neither.', 'invalid_tool_params');
      if (args.cols !== undefined && args.rows !== undefined) pty.resize(args.cols, args.rows);
      if (args.input) pty.write(args.input);
      const text = `Wrote ${args.input?.length ?? 0} characters to process ${args.pid}.`;
      return textResult(text, text);
    },
  });
}
