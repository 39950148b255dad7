import * as z from 'zod';
import { wrapUntrusted } from '../../../protocol/tool-result.js';
import { textResult } from '../../common/result.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../../common/tool.js';
import type { BackgroundJobs } from '../background-jobs.js';

/** Gemini CLI's default tail. */
const DEFAULT_TAIL_LINES = 100;
/** A model's `delay_ms` cannot hold the turn longer than this. */
const MAX_DELAY_MS = 30_000;

const schema = z.object({
  pid: z.number().int().describe('The process ID (PID) of the background process to inspect.'),
  lines: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Optional. Number of lines to read from the end of the log. Defaults to 100.'),
  delay_ms: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Optional. Delay in milliseconds to wait before reading the output. Useful to allow the process to start and generate initial output.',
    ),
});

/**
 * Gemini CLI 0.61's `read_background_output`: the last lines of a job's output, with its headers and
 * messages. The job's output is kept in memory, bounded; when its start was dropped the answer says how much.
 */
export function createReadBackgroundOutputTool(jobs: BackgroundJobs): ToolDefinition {
  return defineTool({
    name: 'read_background_output',
    title: 'Read Background Output',
    description: 'Reads the output log of a background shell process. Support reading tail snapshot.',
    inputSchema: schema,
    annotations: READ_ONLY,
    handler: async (args, ctx) => {
      if (args.delay_ms) await delay(Math.min(args.delay_ms, MAX_DELAY_MS), ctx.signal);
      const job = jobs.ofSession(args.pid);
      if (job.output.binary) return textResult('The output is binary and was not kept.');
      const all = job.output.tail().split('\n');
      if (all.at(-1) === '') all.pop();
      const dropped = job.output.droppedChars;
      // The first kept line is likely cut in the middle once older output was dropped.
      if (dropped > 0 && all.length > 0) all.shift();
      if (all.length === 0) return textResult('Log is empty.', 'Log is empty.');
      const count = args.lines ?? DEFAULT_TAIL_LINES;
      const header = count < all.length ? `Showing last ${count} of ${all.length} lines:\n` : 'Full Log Output:\n';
      const note =
        dropped > 0 ? `[${dropped} earlier characters of output were dropped; only the last ones are kept.]\n` : '';
      const text = `${note}${header}${all.slice(-count).join('\n')}`;
      return textResult(wrapUntrusted(text), text);
    },
  });
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        resolve();
      },
      { once: true },
    );
  });
}
