import { isAbsolute, resolve } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { ConfirmationRequest, ToolCall, ToolRef } from '../scheduler/types.js';
import { bareToolName } from '../../protocol/tool-names.js';

/**
 * How a tool call looks to the editor: its kind (the icon and grouping editors use), a title, the files
 * it touches and what it produced (a diff for edits, the output for commands). Built from the host's
 * typed tool calls only: the ACP agent never looks inside a server.
 */

/** Our built-in tools by their server's tool name; any other tool is `other` (or `read` when read-only). */
const KINDS: Record<string, acp.ToolKind> = {
  read_file: 'read',
  read_many_files: 'read',
  list_directory: 'search',
  glob: 'search',
  search_file_content: 'search',
  google_web_search: 'search',
  search_tools: 'search',
  write_file: 'edit',
  replace: 'edit',
  save_memory: 'edit',
  run_shell_command: 'execute',
  web_fetch: 'fetch',
  enter_plan_mode: 'switch_mode',
  exit_plan_mode: 'switch_mode',
};

export function toolKind(tool: Pick<ToolRef, 'toolName' | 'readOnly'> | undefined, name: string): acp.ToolKind {
  const bare = tool?.toolName ?? bareToolName(name);
  return KINDS[bare] ?? (tool?.readOnly ? 'read' : 'other');
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

function clip(s: string, n = 80): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

/** A short human title: the command for a shell call, the file for an edit, the query for a search. */
export function toolTitle(
  name: string,
  args: Record<string, unknown>,
  tool?: Pick<ToolRef, 'toolName' | 'title'>,
): string {
  const s = (k: string) => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
  switch (tool?.toolName ?? name) {
    case 'run_shell_command':
      return s('command') ? clip(s('command')!) : 'Shell command';
    case 'read_file':
      return `Read ${s('absolute_path') ?? 'file'}`;
    case 'write_file':
      return `Write ${s('file_path') ?? 'file'}`;
    case 'replace':
      return `Edit ${s('file_path') ?? 'file'}`;
    case 'list_directory':
      return `List ${s('path') ?? 'directory'}`;
    case 'glob':
      return `Find files matching ${s('pattern') ?? ''}`.trim();
    case 'search_file_content':
      return `Search for ${clip(s('pattern') ?? '', 60)}`;
    case 'google_web_search':
      return `Web search: ${clip(s('query') ?? '', 60)}`;
    case 'web_fetch':
      return `Fetch: ${clip(s('prompt') ?? s('url') ?? '', 60)}`;
    default:
      return tool?.title ? `${tool.title} (${name})` : name;
  }
}

function text(t: string): acp.ToolCallContent {
  return { type: 'content', content: { type: 'text', text: t } };
}

/** What an ended call shows: the diff of an edit, else the text the tool gave (the model's text if none). */
export function resultContent(call: ToolCall): acp.ToolCallContent[] {
  const r = call.response;
  if (!r) return [];
  const d = r.resultDisplay;
  if (d && typeof d === 'object')
    return [{ type: 'diff', path: d.filePath, oldText: d.originalContent, newText: d.newContent }];
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
  };
  if (req.source === 'pre-call') {
    return {
      ...base,
      title: toolTitle(req.tool.exposedName, req.args, req.tool),
      rawInput: req.args,
      locations: toolLocations(req.args, cwd),
      content: [text(`${req.title}\n\n${JSON.stringify(req.args, null, 2)}`)],
    };
  }
  const d = req.detail;
  if (d.kind === 'edit' && d.filePath && d.newContent !== undefined) {
    return {
      ...base,
      title: d.title,
      locations: [{ path: d.filePath }],
      content: [{ type: 'diff', path: d.filePath, oldText: d.originalContent ?? null, newText: d.newContent }],
    };
  }
  if (d.kind === 'exec') {
    return { ...base, title: d.title, content: [text(d.command ?? req.message)] };
  }
  // The plan to approve: its text, and its file for the editor to open.
  if (d.kind === 'plan' && d.filePath) {
    return { ...base, title: d.title, locations: [{ path: d.filePath }], content: [text(d.prompt ?? req.message)] };
  }
  return { ...base, title: d.title, content: [text(d.prompt ?? req.message)] };
}
