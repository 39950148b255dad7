import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../protocol/meta.js';
import { OUTPUT_LIMIT, runProcess, type RunResult } from './run-process.js';

export interface CallOptions {
  /** Program + leading args of the call command; the tool name is appended. */
  command: string[];
  cwd: string;
  /** 0: no limit. */
  timeoutMs: number;
  signal: AbortSignal;
}

/** Upstream's error type for a failed discovered tool, carried like the kit's error classes. */
export const DISCOVERED_ERROR_TYPE = 'discovered_tool_execution_error';
/**
 * Each stream inserted into a failure text is capped so the five-line format survives the kit's 8 MiB
 * result bound (two full 10 MB streams would not fit in one stdio message).
 */
export const FAILURE_STREAM_CAP = 3 * 1024 * 1024;

/** Runs `<call command> <name>` with the arguments as JSON on stdin and maps the outcome to the bridge's result text. */
export async function callDiscoveredTool(
  name: string,
  args: Record<string, unknown>,
  opts: CallOptions,
): Promise<CallToolResult> {
  const [program, ...lead] = opts.command;
  const run = await runProcess({
    program,
    args: [...lead, name],
    cwd: opts.cwd,
    input: JSON.stringify(args),
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    maxBytes: OUTPUT_LIMIT,
  });
  const ok = !run.spawnError && !run.killedFor && run.code === 0 && run.signal === null && run.stderr === '';
  if (ok) return { content: [{ type: 'text', text: run.stdout }] };
  return {
    content: [{ type: 'text', text: formatFailure(run, opts.timeoutMs) }],
    isError: true,
    _meta: { [META.errorType]: DISCOVERED_ERROR_TYPE },
  };
}

/** The exact five-line failure text the model sees; streams are inserted verbatim (up to the cap). */
export function formatFailure(run: RunResult, timeoutMs = 0): string {
  return [
    `Stdout: ${capped(run.stdout) || '(empty)'}`,
    `Stderr: ${capped(run.stderr) || '(empty)'}`,
    `Error: ${errorOf(run, timeoutMs) ?? '(none)'}`,
    `Exit Code: ${run.code ?? '(none)'}`,
    `Signal: ${run.signal ?? '(none)'}`,
  ].join('\n');
}

function errorOf(run: RunResult, timeoutMs: number): string | undefined {
  if (run.spawnError) return run.spawnError;
  switch (run.killedFor) {
    case 'timeout':
      return `Tool call timed out after ${timeoutMs / 1000} seconds; its process group was killed.`;
    case 'aborted':
      return 'Tool call was cancelled; its process group was killed.';
    case 'overflow':
      return `Tool call command ${run.overflowStream} exceeded size limit of ${OUTPUT_LIMIT} bytes; its process group was killed.`;
    default:
      return undefined;
  }
}

function capped(text: string): string {
  if (Buffer.byteLength(text) <= FAILURE_STREAM_CAP) return text;
  const head = Buffer.from(text)
    .subarray(0, FAILURE_STREAM_CAP)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  const omitted = Buffer.byteLength(text) - Buffer.byteLength(head);
  return `${head}\n... [${omitted} more bytes omitted] ...`;
}
