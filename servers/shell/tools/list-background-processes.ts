import * as z from 'zod';
import { textResult } from '../../common/result.js';
import { defineTool, READ_ONLY, type ToolDefinition } from '../../common/tool.js';
import type { BackgroundJobs } from '../background-jobs.js';

const NONE = 'No background processes found.';

/** Gemini CLI 0.61's `list_background_processes`: its name, description and line format. */
export function createListBackgroundProcessesTool(jobs: BackgroundJobs): ToolDefinition {
  return defineTool({
    name: 'list_background_processes',
    title: 'List Background Processes',
    description: 'Lists all active and recently completed background shell processes orchestrating by the agent.',
    inputSchema: z.object({}),
    annotations: READ_ONLY,
    handler: async () => {
      const lines = jobs
        .list()
        .map(
          (j) =>
            `- [PID ${j.pid}] ${j.status.toUpperCase()}: \`${j.command}\`` +
            (j.exitCode !== undefined ? ` (Exit Code: ${j.exitCode})` : '') +
            (j.signal ? ` (Signal: ${j.signal})` : ''),
        );
      const text = lines.length ? lines.join('\n') : NONE;
      return textResult(text, text);
    },
  });
}
