import { isAbsolute, resolve } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { ConfirmationRequest, ToolCall, ToolRef } from '../scheduler/types.js';
import { bareToolName } from '../../protocol/tool-names.js';
import { builtinByName, builtinTool } from '../tools/builtin-catalogue.js';
import { relativeTo } from '../tools/call-titles.js';

/**
 * How a tool call looks to the editor: its kind (the icon and grouping editors use), a title, the files
 * it touches and what it produced (a diff for edits, the output for commands). Built from the host's
 * typed tool calls only: the ACP agent never looks inside a server.
 */

/**
 * The catalogue row behind a call: the built-in server's own tool, or, when the tool is not registered
 * (a replayed session whose server is gone), a built-in of that bare name.
 */
function rowOf(tool: Pick<ToolRef, 'toolName' | 'serverAlias' | 'builtIn'> | undefined, name: string) {
  if (tool) return tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName) : undefined;
  const bare = bareToolName(name);
  return builtinByName(bare);
}

/** The editor's kind: the catalogue's for a built-in; another server's tool is `read` when read-only, else `other`. */
export function toolKind(
  tool: Pick<ToolRef, 'toolName' | 'serverAlias' | 'builtIn' | 'readOnly'> | undefined,
  name: string,
): acp.ToolKind {
  return rowOf(tool, name)?.kind ?? (tool?.readOnly ? 'read' : 'other');
}

const PATH_KEYS = ['file_path', 'absolute_path', 'path', 'dir_path'] as const;

/** The files a call names in its arguments, as absolute paths. */
export function toolLocations(args: Record<string, unknown>, cwd: string): acp.ToolCallLocation[] {
  const out: acp.ToolCallLocation[] = [];
  for (const key of PATH_KEYS) {
    const v = args[key];
    if (typeof v === 'string' && v.trim()) out.push({ path: isAbsolute(v) ? v : resolve(cwd, v) });
  }
  const many = args.paths;
  if (Array.isArray(many))
    for (const p of many.slice(0, 20))
      if (typeof p === 'string') out.push({ path: isAbsolute(p) ? p : resolve(cwd, p) });
  return out;
}

/**
 * A call's one-line title: Gemini CLI 0.61's for a built-in (`Writing to draft.md`, the command of a shell
 * call), else another server's command argument or the tool's own title.
 */
export function toolTitle(
  name: string,
  args: Record<string, unknown>,
  cwd: string,
  tool?: Pick<ToolRef, 'toolName' | 'serverAlias' | 'builtIn' | 'title'>,
): string {
  const row = rowOf(tool, name);
  if (row) return row.title(args, (p) => relativeTo(cwd, p));
  if (typeof args.command === 'string') return args.command;
  return tool?.title ? `${tool.title} (${name})` : name;
}

/**
 * An edit as the editor shows it, with Gemini CLI's `_meta.kind` (add, delete, modify) beside the texts; a
 * new file's old text is null, so the editor counts only the added lines.
 */
function diffContent(path: string, oldText: string | null | undefined, newText: string): acp.ToolCallContent {
  const kind = !oldText ? 'add' : newText === '' ? 'delete' : 'modify';
  return { type: 'diff', path, oldText: oldText || null, newText, _meta: { kind } };
}

function text(t: string): acp.ToolCallContent {
  return { type: 'content', content: { type: 'text', text: t } };
}

/** What an ended call shows: the diff of an edit, else the text the tool gave (the model's text if none). */
export function resultContent(call: ToolCall): acp.ToolCallContent[] {
  const r = call.response;
  if (!r) return [];
  const d = r.resultDisplay;
  if (d && typeof d === 'object') return [diffContent(d.filePath, d.originalContent, d.newContent)];
  if (call.status === 'cancelled')
    return [text(`Cancelled. ${typeof d === 'string' && d ? d : r.responseText}`.trim())];
  const shown = typeof d === 'string' && d ? d : (r.error ?? r.responseText);
  return shown ? [text(shown)] : [];
}

/** ACP has no `cancelled` call status: a cancelled call is `failed`, and its content starts with "Cancelled". */
export function callStatus(call: ToolCall): acp.ToolCallStatus {
  switch (call.status) {
    case 'success':
      return 'completed';
    case 'error':
    case 'cancelled':
      return 'failed';
    case 'executing':
      return 'in_progress';
    default:
      return 'pending';
  }
}

/** The question as the editor shows it: the proposed diff, the command, or the arguments. */
export function confirmationToolCall(req: ConfirmationRequest, cwd: string): acp.ToolCallUpdate {
  const base: acp.ToolCallUpdate = {
    toolCallId: req.callId,
    kind: toolKind(req.tool, req.tool.exposedName),
    status: 'pending',
    title: toolTitle(req.tool.exposedName, req.args, cwd, req.tool),
  };
  if (req.source === 'pre-call') {
    return {
      ...base,
      rawInput: req.args,
      locations: toolLocations(req.args, cwd),
      content: [text(`${req.title}\n\n${JSON.stringify(req.args, null, 2)}`)],
    };
  }
  const d = req.detail;
  if (d.kind === 'edit' && d.filePath && d.newContent !== undefined) {
    return {
      ...base,
      locations: [{ path: d.filePath }],
      content: [diffContent(d.filePath, d.originalContent, d.newContent)],
    };
  }
  if (d.kind === 'exec') {
    return { ...base, content: [text(d.command ?? req.message)] };
  }
  // The plan to approve: its text, and its file for the editor to open.
  if (d.kind === 'plan' && d.filePath) {
    return { ...base, title: d.title, locations: [{ path: d.filePath }], content: [text(d.prompt ?? req.message)] };
  }
  return { ...base, content: [text(d.prompt ?? req.message)] };
}
