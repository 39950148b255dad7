import { basename } from 'node:path';
import type { ConfirmationDetail } from '../../protocol/confirmation.js';
import { parseCommand } from '../../protocol/bash/command-model.js';
import type { ConfirmationRequest, ToolRef } from '../scheduler/types.js';
import { relativeTo } from '../tools/call-titles.js';
import { builtinTool, geminiToolName, inGeminiSpelling } from '../tools/builtin-catalogue.js';

/** The Notification event's `message` and `details`, as Gemini CLI 0.61 sends them on a permission request. */
export interface PermissionNotification {
  message: string;
  details: Record<string, unknown>;
}

/**
 * Gemini CLI's serialized confirmation details, so a hook written for it reads `details.command`,
 * `details.filePath` or `details.serverName` here too: `exec` for a shell command, `edit` for a file change,
 * `mcp` for another server's tool, `info` for a fetch or any other built-in; the message names the title.
 */
export async function permissionNotification(
  request: ConfirmationRequest,
  cwd: string,
): Promise<PermissionNotification> {
  const details =
    request.source === 'elicitation' ? fromDetail(request.detail) : await beforeCall(request.tool, request.args, cwd);
  return { message: notificationMessage(details), details };
}

function notificationMessage(d: Record<string, unknown>): string {
  const verb = { edit: 'editing', exec: 'execution', mcp: 'MCP', info: 'information' }[String(d.type)];
  return verb ? `Tool ${d.title} requires ${verb}` : 'Tool requires confirmation';
}

/** A server's own question (our built-ins raise it just before the side effect), in Gemini CLI's shape. */
function fromDetail(d: ConfirmationDetail): Record<string, unknown> {
  const base = { type: d.kind, title: d.title };
  switch (d.kind) {
    case 'exec':
      return { ...base, command: d.command, rootCommand: rootCommandOf(d.rootCommands, d.command) };
    case 'edit':
      return {
        ...base,
        fileName: d.filePath ? basename(d.filePath) : undefined,
        filePath: d.filePath,
        fileDiff: d.fileDiff,
        originalContent: d.originalContent,
        newContent: d.newContent,
      };
    default:
      return { ...base, prompt: d.prompt, urls: d.urls };
  }
}

/**
 * The host's own question before a call: another server's tool (Gemini CLI's MCP confirmation), or a
 * built-in a hook's `ask` put before the user (a shell command as `exec`, anything else as Gemini CLI's
 * generic `info` confirmation, whose prompt is the call's description).
 */
async function beforeCall(tool: ToolRef, args: Record<string, unknown>, cwd: string): Promise<Record<string, unknown>> {
  const row = tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName) : undefined;
  if (!row)
    return {
      type: 'mcp',
      title: 'Confirm MCP Tool Execution',
      serverName: tool.serverAlias,
      toolName: tool.toolName,
      toolDisplayName: `${tool.toolName} (${tool.serverAlias} MCP Server)`,
    };
  if (row.cls === 'exec' && typeof args.command === 'string') {
    const parsed = await parseCommand(args.command).catch(() => undefined);
    const roots = parsed?.ok ? parsed.rootCommands : undefined;
    return {
      type: 'exec',
      title: 'Confirm Shell Command',
      command: args.command,
      rootCommand: rootCommandOf(roots, args.command),
    };
  }
  const spelled = inGeminiSpelling(tool, args) ?? args;
  return {
    type: 'info',
    title: `Confirm: ${tool.title ?? geminiToolName(tool)}`,
    prompt: row.title(spelled, (p) => relativeTo(cwd, p)),
  };
}

/** Gemini CLI's `rootCommand`: the command names joined, else the first word. */
function rootCommandOf(roots: readonly string[] | undefined, command: string | undefined): string {
  if (roots?.length) return roots.join(', ');
  return command?.trim().split(/\s+/)[0] || 'shell command';
}
