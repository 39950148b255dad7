import type { ConfirmationRequest, ToolHooks, ToolRef } from '../scheduler/types.js';
import { claudeToolName, geminiToolName, inGeminiSpelling } from '../tools/builtin-catalogue.js';
import type { HookSystem, HookToolNames } from './hook-system.js';
import { permissionNotification } from './notification-details.js';

const names = (tool: ToolRef): HookToolNames => ({
  gemini: geminiToolName(tool),
  claude: claudeToolName(tool),
  exposed: tool.exposedName,
});

/** What Gemini CLI's `mcp_context` says of a server: its settings key and how it is reached (no secrets). */
export interface McpServerFacts {
  name?: string;
  command?: string;
  args?: string[];
  cwd?: string;
  url?: string;
}

/**
 * Third-party tools carry their server (its `mcpServers` key and connection details, never its env or
 * headers) and the server's own tool name, as Gemini CLI's `mcp_context`.
 */
function mcpContext(tool: ToolRef, server: McpServerFacts | undefined) {
  if (tool.builtIn) return {};
  const s = server ?? {};
  return {
    mcp_context: {
      server_name: s.name ?? tool.serverAlias,
      tool_name: tool.toolName,
      command: s.command,
      args: s.args,
      cwd: s.cwd,
      url: s.url,
    },
  };
}

/** The failure of a call as Gemini CLI's tool result carries it: `{message, type}`. */
const errorOf = (message: string | undefined, type: string | undefined) =>
  message === undefined ? undefined : { message, ...(type ? { type } : {}) };

/** A tail call's hooks are told the name the model called, as Gemini CLI's `original_request_name`. */
const originalName = (original: ToolRef | undefined) =>
  original ? { original_request_name: geminiToolName(original) } : {};

/**
 * The scheduler's tool hooks over the hook system. Hooks see a call's input as the model sent it (as
 * Gemini CLI shows it); when that was our spelling, a built-in's input is shown in Gemini CLI's
 * (`file_path` for read_file), as scripts written for Gemini CLI expect. What they rewrite is turned back
 * into ours by the scheduler's argument normaliser.
 */
export function toolHooks(
  system: HookSystem,
  serverOf: (alias: string) => McpServerFacts | undefined = () => undefined,
): ToolHooks {
  return {
    async beforeTool(tool, args, signal, asSent, original) {
      if (!system.has('BeforeTool')) return {};
      const sent = asSent ?? args;
      const input = inGeminiSpelling(tool, sent) ?? sent;
      const o = await system.fire(
        'BeforeTool',
        { tool_input: input, ...mcpContext(tool, serverOf(tool.serverAlias)), ...originalName(original) },
        { tool: names(tool) },
        signal,
      );
      return {
        ...(o.blocked !== undefined ? { blocked: o.blocked } : {}),
        ...(o.stopped !== undefined ? { stopped: o.stopped } : {}),
        ...(o.ask ? { ask: true, ...(o.askReason ? { askReason: o.askReason } : {}) } : {}),
        ...(o.allowed ? { allowed: true } : {}),
        ...(o.updatedInput
          ? { updatedInput: { ...input, ...o.updatedInput }, modifiedKeys: Object.keys(o.updatedInput) }
          : {}),
      };
    },
    async afterTool(tool, args, response, signal, asSent, original) {
      if (!system.has('AfterTool')) return {};
      const o = await system.fire(
        'AfterTool',
        {
          tool_input: inGeminiSpelling(tool, asSent ?? args) ?? asSent ?? args,
          tool_response: {
            llmContent: response.llmContent,
            returnDisplay: response.returnDisplay,
            error: errorOf(response.error, response.errorType),
          },
          ...mcpContext(tool, serverOf(tool.serverAlias)),
          ...originalName(original),
        },
        { tool: names(tool) },
        signal,
      );
      return {
        ...(o.blocked !== undefined ? { blocked: o.blocked } : {}),
        ...(o.stopped !== undefined ? { stopped: o.stopped } : {}),
        ...(o.context ? { context: o.context } : {}),
        ...(o.tail ? { tail: o.tail } : {}),
      };
    },
    async awaitingApproval(request: ConfirmationRequest) {
      if (!system.has('Notification')) return;
      const { message, details } = await permissionNotification(request, system.cwd);
      // Observe only: what the hook answers decides nothing.
      await system.fire(
        'Notification',
        { notification_type: 'ToolPermission', message, details },
        { trigger: 'ToolPermission' },
      );
    },
  };
}
