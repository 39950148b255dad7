import * as z from 'zod';
import { textResult } from '../../common/result.js';
import { defineTool, type ToolDefinition } from '../../common/tool.js';
import type { BackgroundJobs } from '../background-jobs.js';

/**
 * Stops a background job with everything it started (its whole process group: SIGTERM, then SIGKILL
 * after a grace period). Gemini CLI 0.61 has no such tool; its model could only `kill` by hand.
 */
export function createKillBackgroundProcessTool(jobs: BackgroundJobs): ToolDefinition {
  return defineTool({
    name: 'kill_background_process',
    title: 'Kill Background Process',
    description:
      'Stops a background shell process started with `is_background`, together with every process it started (its whole process group). Use `list_background_processes` to find its PID.',
    inputSchema: z.object({
      pid: z.number().int().describe('The process ID (PID) of the background process to stop.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    handler: async (args) => {
      const job = jobs.ofSession(args.pid);
      const stopped = await jobs.stop(job);
      const text = stopped
        ? `Stopped background process ${job.pid} (\`${job.command}\`) and every process it started.`
        : `Background process ${job.pid} (\`${job.command}\`) had already exited.`;
      return textResult(text, text);
    },
  });
}
