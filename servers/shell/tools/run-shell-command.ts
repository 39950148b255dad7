import { randomHex } from '../../../protocol/lazy-require.js';
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import * as z from 'zod';
import { META } from '../../../protocol/meta.js';
import { proceeds } from '../../../protocol/confirmation.js';
import { guardPath } from '../../common/path-guard.js';
import { textResult, ToolError, userCancelled } from '../../common/result.js';
import { wrapUntrusted } from '../../../protocol/tool-result.js';
import { defineTool, type ToolContext, type ToolDefinition } from '../../common/tool.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { truncateWithFile } from '../../../protocol/truncate.js';
import { executeCommand } from '../execute.js';
import { gitDirsOf } from '../git-env.js';
import { displayOf, formatOutcome } from '../output.js';
import { createParseMemo } from '../parse-memo.js';
import type { GroupRegistry } from '../process-group.js';
import type { BackgroundJobs } from '../background-jobs.js';
import { startInBackground } from '../background-start.js';
import type { ExecOutcome } from '../output.js';
import { createLineStreamer, createTerminalStreamer } from '../progress.js';
import { canOpenTerminal, executeInPty } from '../pty-execute.js';
import type { PtySessions } from '../pty-sessions.js';
import type { SandboxFor } from '../sandbox.js';

export interface RunShellCommandDeps {
  groups: GroupRegistry;
  /** Where `is_background` commands go. */
  jobs: BackgroundJobs;
  /** Inactivity timeout in ms; 0 disables it. */
  timeoutMs: number;
  /** Model-facing character limit. */
  truncateThreshold: number;
  /** Where full outputs go when the project temp dir is not configured. */
  fallbackTempDir: string;
  /** Minimum gap between progress notifications. */
  progressIntervalMs: number;
  /** Every command runs confined (see protocol/sandbox); absent: with the server's own rights. */
  sandbox?: SandboxFor;
  /** The commands running in a pseudo-terminal, for `write_to_shell`. */
  ptys: PtySessions;
}

/** A person typing sees their echo after at most this long (a terminal's output is batched no longer). */
const TERMINAL_INTERVAL_MS = 50;

export const SUBSTITUTION_BLOCKED =
  'Command injection detected: command substitution syntax ($(), backticks, <() or >()) found in command arguments. ' +
  'On PowerShell, @() array subexpressions and $() subexpressions are also blocked. This is a security risk and the command was blocked.';

const DESCRIPTION = `This tool executes a given shell command as \`bash -c <command>\`. Command substitution using $(), backticks, <() or >() is not allowed and is blocked. To run a command in the background, set the \`is_background\` parameter to true. Do NOT use \`&\` to background commands. The command runs in its own process group, which can be terminated with \`kill -- -PGID\`, or signalled with \`kill -s SIGNAL -- -PGID\`.

The following information is returned:

Output: Combined stdout and stderr. Can be \`(empty)\` or partial on error and for any unwaited background processes.
Error: Process-level error message, only when the command could not be started.
Exit Code: Only included if the command exited with a non-zero code.
Signal: Signal number, only if the command was terminated by a signal.
Background PIDs: List of background processes started, only if any are still running when the command exits.
Process Group PGID: Process group started, only if the process started.

The command runs in the primary workspace root, or in \`directory\` (relative to it, must exist). Output is cut to the first and last characters when very long; the full text is saved to a file named in the result. A command that produces no output for the inactivity timeout is stopped. Unless the user is at a terminal that lets them type into the command (the result then shows the screen as they saw it), nobody can type into a command: one that waits for input (a prompt, an editor) is stopped about a second after it starts waiting, with a result that says so; run such commands non-interactively.`;

/** Said when asking: what is approved keeps running after the turn. */
export const BACKGROUND_LINE =
  'Runs in the background: it keeps running after this call, until stopped or the session ends.';

const SANDBOX_NOTE = `

Commands run in a sandbox: they can write only inside the workspace and a private TMPDIR (the rest of the file system, /tmp included, is read-only), credentials such as ~/.ssh and ~/.aws are hidden, the network is off unless a host is allow-listed, and nothing a command starts outlives it.`;

const schema = z.object({
  command: z.string().describe('Exact bash command to execute as `bash -c <command>`'),
  description: z
    .string()
    .optional()
    .describe('Brief description of the command for the user. Be specific and concise. Ideally a single sentence.'),
  directory: z
    .string()
    .optional()
    .describe('(OPTIONAL) Directory to run the command in, relative to the primary workspace root. Must exist.'),
  is_background: z
    .boolean()
    .optional()
    .describe(
      'Set to true if this command should be run in the background (e.g. for long-running servers or watchers). The command will be started, allowed to run for a brief moment to check for immediate errors, and then moved to the background.',
    ),
  delay_ms: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Optional. Delay in milliseconds to wait after starting the process in the background. Useful to allow the process to start and generate initial output before returning.',
    ),
});

export function createRunShellCommandTool(deps: RunShellCommandDeps): ToolDefinition {
  const parseCommand = createParseMemo();
  return defineTool({
    name: 'run_shell_command',
    title: 'Shell',
    description: deps.sandbox ? DESCRIPTION + SANDBOX_NOTE : DESCRIPTION,
    inputSchema: schema,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: !deps.sandbox },
    meta: { [META.confirms]: true, ...(deps.sandbox ? { [META.sandboxed]: true } : {}) },
    handler: async (args, ctx) => {
      const command = args.command;
      if (command.trim() === '') throw new ToolError('Command cannot be empty.', 'invalid_tool_params');
      const parsed = await parseCommand(command);
      if (!parsed.ok || parsed.rootCommands.length === 0) {
        throw new ToolError('Could not identify command root to obtain permission from user.', 'invalid_tool_params');
      }
      if (args.directory && isAbsolute(args.directory)) {
        throw new ToolError(
          'Directory cannot be absolute. Must be relative to the project root directory.',
          'invalid_tool_params',
        );
      }
      const cwd = guardPath(args.directory || '.', ctx.roots).real;
      if (!isDirectory(cwd)) throw new ToolError('Directory must exist.', 'invalid_tool_params');

      // Success-shaped and unwrapped by contract: the model should rewrite the command, not retry.
      if (parsed.hasSubstitution)
        return textResult(SUBSTITUTION_BLOCKED, 'Blocked: command substitution detected in shell command.');

      const detail = {
        kind: 'exec' as const,
        title: 'Confirm Shell Command',
        command,
        rootCommands: parsed.rootCommands,
        directory: cwd,
        ...(args.description ? { description: args.description } : {}),
        ...(args.is_background ? { background: true } : {}),
      };
      const message = [
        'Confirm Shell Command',
        `Command: ${command}`,
        `Root commands: ${parsed.rootCommands.join(', ')}`,
        `Directory: ${cwd}`,
        ...(args.description ? [`Description: ${args.description}`] : []),
        ...(args.is_background ? [BACKGROUND_LINE] : []),
      ].join('\n');
      const outcome = await ctx.confirm(detail, message);
      if (!proceeds(outcome)) throw userCancelled();
      if (deps.groups.isClosed || ctx.signal.aborted) throw userCancelled();

      const gitDirs = gitDirsOf(parsed.commands, cwd);
      const confine = deps.sandbox?.(ctx.roots.list, ctx.roots.projectTempDir ? [ctx.roots.projectTempDir] : []);
      if (args.is_background) {
        return startInBackground(deps.jobs, { command, cwd, gitDirs, confine }, args.delay_ms, ctx.signal, (r) =>
          finishResult(r, deps, ctx),
        );
      }
      if (ctx.terminal && canOpenTerminal())
        return finishResult(await runInTerminal(command, cwd, ctx, deps, gitDirs, confine), deps, ctx);
      const streamer = createLineStreamer((text) => void ctx.progress(text), deps.progressIntervalMs);
      const result = await executeCommand({
        command,
        cwd,
        signal: ctx.signal,
        timeoutMs: deps.timeoutMs,
        groups: deps.groups,
        onOutput: (text) => streamer.push(text),
        gitDirs,
        confine,
      });
      streamer.stop();
      return finishResult(result, deps, ctx);
    },
  });
}

/** A command run in a pseudo-terminal the user types into: its raw output streams out for the caller's screen. */
async function runInTerminal(
  command: string,
  cwd: string,
  ctx: ToolContext,
  deps: RunShellCommandDeps,
  gitDirs: string[] | undefined,
  confine: ReturnType<SandboxFor> | undefined,
): Promise<ExecOutcome> {
  const size = ctx.terminal!;
  const streamer = createTerminalStreamer(
    (text, pid, data) => void ctx.progress(text, { [META.terminalOutput]: { pid, data } }),
    Math.min(TERMINAL_INTERVAL_MS, deps.progressIntervalMs),
  );
  const result = await executeInPty({
    command,
    cwd,
    signal: ctx.signal,
    timeoutMs: deps.timeoutMs,
    groups: deps.groups,
    sessions: deps.ptys,
    cols: size.cols,
    rows: size.rows,
    onOutput: (pid, data) => streamer.push(pid, data),
    gitDirs,
    confine,
  });
  streamer.flush();
  return result;
}

/** The model's result of a command that ended: its output wrapped, cut to the threshold, with the outcome in `_meta`. */
async function finishResult(result: ExecOutcome, deps: RunShellCommandDeps, ctx: ToolContext): Promise<CallToolResult> {
  const wrapped = wrapUntrusted(formatOutcome(result, deps.timeoutMs));
  const { text, file } = await truncateShellOutput(
    wrapped,
    deps.truncateThreshold,
    ctx.roots.projectTempDir ?? deps.fallbackTempDir,
    ctx.callId,
  );
  // The display is the command's own output (its end, when huge), never the text wrapped for the model.
  const display = capDisplay(
    result.timedOut ? text : result.wantedInput ? formatOutcome(result, deps.timeoutMs) : displayOf(result),
  );
  if (result.error) throw new ToolError(text, 'shell_execute_error', display);
  const done = textResult(text, display);
  done._meta = {
    ...done._meta,
    ...(file ? { [META.outputFile]: file } : {}),
    [META.shellOutcome]: {
      // Bounded: the result already carries the (truncated) text once; a 16 MB copy would double it.
      output:
        result.output.length > MAX_OUTCOME_CHARS
          ? `${result.output.slice(0, MAX_OUTCOME_CHARS)}\n[output cut at ${MAX_OUTCOME_CHARS} characters]`
          : result.output,
      exitCode: result.exitCode,
      signal: result.signal,
      aborted: result.aborted || result.timedOut || result.wantedInput !== undefined,
    },
  };
  return done;
}

const MAX_DISPLAY_CHARS = 40_000;
const MAX_OUTCOME_CHARS = 1_000_000;

function capDisplay(text: string): string {
  return text.length > MAX_DISPLAY_CHARS ? `...${text.slice(text.length - MAX_DISPLAY_CHARS)}` : text;
}

/**
 * Output past the threshold is saved whole to `<project temp dir>/tool-outputs/run_shell_command_<id>.txt`
 * (Gemini CLI's name for it): the id is the host's call id when given (so the host can find it), else a
 * fresh random one.
 */
function truncateShellOutput(
  text: string,
  threshold: number,
  dir: string,
  callId?: string,
): Promise<{ text: string; file?: string }> {
  // Named only when saved: most outputs are short, and a random name per call was measurable.
  const fileName = () => {
    const safeCallId = callId?.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 80);
    const id = safeCallId ? `${safeCallId}_${randomHex(3)}` : `${Date.now()}_${randomHex(4)}`;
    return `run_shell_command_${id}.txt`;
  };
  return truncateWithFile(text, { threshold, dir, label: 'run_shell_command', fileName });
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
