import type { ConfirmationRequest, ToolHooks, ToolRef } from '../scheduler/types.js';
import { claudeToolName, geminiToolName, inGeminiSpelling } from '../tools/builtin-catalogue.js';
import type { HookSystem, HookToolNames } from './hook-system.js';
import { permissionNotification } from './notification-details.js';

const names = (tool: ToolRef): HookToolNames => ({
  gemini: geminiToolName(tool),
  claude: claudeToolName(tool),
  exposed: tool.exposedName,
});

/** Third-party tools carry their server and the server's own tool name, as Gemini CLI's `mcp_context`. */
const mcpContext = (tool: ToolRef) =>
  tool.builtIn ? {} : { mcp_context: { server_name: tool.serverAlias, tool_name: tool.toolName } };

/** A tail call's hooks are told the name the model called, as Gemini CLI's `original_request_name`. */
const originalName = (original: ToolRef | undefined) =>
  original ? { original_request_name: geminiToolName(original) } : {};

/**
 * The scheduler's tool hooks over the hook system. Hooks see a call's input as the model sent it (as
 * Gemini CLI shows it); when that was our spelling, a built-in's input is shown in Gemini CLI's
 * (`file_path` for read_file), as scripts written for Gemini CLI expect. What they rewrite is turned back
 * into ours by the scheduler's argument normaliser.
 */
export function toolHooks(system: HookSystem): ToolHooks {
  return {
    async beforeTool(tool, args, signal, asSent, original) {
      if (!system.has('BeforeTool')) return {};
      const sent = asSent ?? args;
      const input = inGeminiSpelling(tool, sent) ?? sent;
      const o = await system.fire(
        'BeforeTool',
        { tool_input: input, ...mcpContext(tool), ...originalName(original) },
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
          tool_response: response,
          ...mcpContext(tool),
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
