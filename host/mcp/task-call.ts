import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * Task-augmented tool calls: a tool that declares `execution.taskSupport: "required"` is called as an MCP
 * task. The SDK creates the task, polls its status (answering the server's questions the task raises on
 * the way) and fetches the result; the status messages show as the call's progress, and aborting the
 * call cancels the task on the server.
 */

export function needsTask(tools: Tool[], name: string): boolean {
  const execution = (tools.find((t) => t.name === name) as { execution?: { taskSupport?: string } } | undefined)
    ?.execution;
  return execution?.taskSupport === 'required';
}

export interface TaskCallOptions {
  signal: AbortSignal;
  meta?: Record<string, unknown>;
  onProgress?: (p: { progress: number; total?: number; message?: string }) => void;
}

export async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  opts: TaskCallOptions,
): Promise<CallToolResult> {
  if (!client.getServerCapabilities()?.tasks) {
    throw new Error(`tool '${name}' requires MCP tasks, but the server does not declare the tasks capability`);
  }
  let taskId: string | undefined;
  let steps = 0;
  const cancel = (): void => {
    if (taskId) void client.experimental.tasks.cancelTask(taskId).catch(() => undefined);
  };
  opts.signal.addEventListener('abort', cancel, { once: true });
  try {
    const stream = client.experimental.tasks.callToolStream(
      { name, arguments: args, ...(opts.meta ? { _meta: opts.meta } : {}) },
      CallToolResultSchema,
      {
        signal: opts.signal,
        timeout: 2 ** 31 - 1,
        task: {},
        ...(opts.onProgress ? { onprogress: opts.onProgress } : {}),
      },
    );
    for await (const m of stream) {
      if (m.type === 'taskCreated') taskId = m.task.taskId;
      else if (m.type === 'taskStatus') {
        const message = `task ${m.task.status}${m.task.statusMessage ? `: ${m.task.statusMessage}` : ''}`;
        opts.onProgress?.({ progress: ++steps, message });
      } else if (m.type === 'result') return m.result as CallToolResult;
      else if (m.type === 'error') throw m.error;
    }
    throw new Error(`the task of tool '${name}' ended without a result`);
  } finally {
    opts.signal.removeEventListener('abort', cancel);
  }
}
