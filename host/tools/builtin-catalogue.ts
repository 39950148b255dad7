import { isAbsolute, resolve } from 'node:path';
import { clipPrompt, editTitle, grepTitle, relativeTo, shortenPath, type TitleOf } from './call-titles.js';
import { dirArgs, flattenFiltering, lineWindow, rename } from './gemini-arg-spellings.js';
import { HOST_TOOLS_ALIAS } from './tool-search.js';

/**
 * The one catalogue of built-in tools: which server offers each, how policy classes it, the names other
 * clients and people's files use for it (Gemini CLI 0.61 and older, Claude Code's hook names), and the
 * hint the system prompt gives. Policy, naming, prompts, @-commands, hooks and the chat read this table;
 * a test checks it against the servers' real tool lists. Adding a built-in tool is its tool file plus one
 * row here.
 */

/** How an editor groups and draws a call (ACP's tool kinds). */
export type EditorKind =
  | 'read'
  | 'edit'
  | 'delete'
  | 'move'
  | 'search'
  | 'execute'
  | 'think'
  | 'fetch'
  | 'switch_mode'
  | 'other';

/**
 * How policy sees a tool; `memory` is an edit that autoEdit does not cover, `external` a third party's,
 * `plan` a switch into or out of plan mode (Gemini CLI's Kind.Plan).
 */
export type ToolClass = 'read-only' | 'edit' | 'exec' | 'info' | 'memory' | 'external' | 'plan';

export interface BuiltinTool {
  /** The built-in server's alias; `@host` for a tool the host itself answers (it changes the host's state). */
  server: 'filesystem' | 'shell' | 'web' | 'memory' | '@host';
  /** The tool's MCP name (and Gemini CLI's name unless `geminiName` says otherwise). */
  tool: string;
  cls: ToolClass;
  /** Gemini CLI 0.61's name when it differs from ours. */
  geminiName?: string;
  /** Other names people's files use: legacy Gemini CLI names and class names of old `tools.core` lists. */
  aliases: readonly string[];
  /** Claude Code's name for the tool in hook matchers and payloads. */
  claudeName?: string;
  /** The system prompt's pointer to the tool's role (`n` is the exposed name). */
  hint: (n: string) => string;
  /** Arguments that name the file or directory the call works in (just-in-time context). */
  pathArgs?: (args: Record<string, unknown>) => unknown[];
  /**
   * Gemini CLI 0.61's spellings of the arguments turned into ours (`file_path` → `absolute_path`,
   * `dir_path` → `path`, relative paths made absolute by `abs`), so a call recorded from Gemini CLI runs.
   * Our own spellings pass unchanged; a key only Gemini CLI knows and we have no equivalent for is dropped.
   */
  geminiArgs?: (args: Args, abs: (p: unknown) => unknown, rel: (p: unknown) => unknown) => Args;
  /** Our argument names → Gemini CLI's, for policy `argsPattern`s written against Gemini CLI's spelling. */
  geminiKeys?: Readonly<Record<string, string>>;
  /** Offered to the model only while this tool of the same server is (a job's tools are no use without the shell). */
  offeredWith?: string;
  /** The editor's kind for the tool's calls (ACP). */
  kind: EditorKind;
  /** Gemini CLI 0.61's title of a call (its editor mode's permission request and tool call). */
  title: TitleOf;
  /** Only a person can answer it: a session nobody can answer forms in does not offer it (as 0.61's headless). */
  needsUser?: boolean;
  /** The host calls it for the user (keystrokes into a running command): never offered to, nor run for, the model. */
  hostOnly?: boolean;
}

type Args = Record<string, unknown>;

export const BUILTIN_TOOLS: readonly BuiltinTool[] = [
  {
    server: 'filesystem',
    tool: 'glob',
    kind: 'search',
    title: (a, rel) => `'${a.pattern ?? ''}'${a.path ? ` within ${shortenPath(rel(a.path))}` : ''}`,
    geminiKeys: { path: 'dir_path' },
    geminiArgs: dirArgs,
    cls: 'read-only',
    aliases: ['GlobTool'],
    claudeName: 'Glob',
    hint: (n) => `find files by name pattern with \`${n}\``,
  },
  {
    server: 'filesystem',
    tool: 'search_file_content',
    kind: 'search',
    title: grepTitle,
    geminiKeys: { path: 'dir_path', include: 'include_pattern' },
    geminiArgs: (a, abs) => rename(dirArgs(a, abs), 'include_pattern', 'include'),
    cls: 'read-only',
    geminiName: 'grep_search',
    aliases: ['GrepTool', 'RipGrepTool'],
    claudeName: 'Grep',
    hint: (n) => `search file contents with \`${n}\``,
  },
  {
    server: 'filesystem',
    tool: 'list_directory',
    kind: 'search',
    title: (a, rel) => shortenPath(rel(a.path)),
    geminiKeys: { path: 'dir_path' },
    geminiArgs: (a, abs) => flattenFiltering(dirArgs(a, abs)),
    cls: 'read-only',
    aliases: ['LSTool'],
    claudeName: 'LS',
    hint: (n) => `list a directory with \`${n}\``,
    pathArgs: (a) => [a.path],
  },
  {
    server: 'filesystem',
    tool: 'read_file',
    kind: 'read',
    title: (a, rel) => shortenPath(rel(a.absolute_path)),
    geminiKeys: { absolute_path: 'file_path' },
    geminiArgs: (a, abs) => {
      const r = lineWindow(rename(a, 'file_path', 'absolute_path'));
      return { ...r, absolute_path: abs(r.absolute_path) };
    },
    cls: 'read-only',
    aliases: ['ReadFileTool'],
    claudeName: 'Read',
    hint: (n) => `read one file with \`${n}\``,
    pathArgs: (a) => [a.absolute_path],
  },
  {
    server: 'filesystem',
    tool: 'read_many_files',
    kind: 'read',
    title: (a) => `Read ${Array.isArray(a.paths) ? a.paths.join(', ') : 'files'}`,
    geminiKeys: { paths: 'include' },
    geminiArgs: (a) => flattenFiltering(rename(a, 'include', 'paths')),
    cls: 'read-only',
    aliases: ['ReadManyFilesTool'],
    hint: (n) => `read several files at once with \`${n}\``,
    // Plain paths only (globs name no single directory); a few are enough to find the subdirectories.
    pathArgs: (a) =>
      Array.isArray(a.paths) ? a.paths.filter((p) => typeof p === 'string' && !/[*?[{]/.test(p)).slice(0, 5) : [],
  },
  {
    server: 'filesystem',
    tool: 'replace',
    kind: 'edit',
    title: editTitle,
    geminiArgs: (a, abs) => ({ ...a, file_path: abs(a.file_path) }),
    cls: 'edit',
    aliases: ['EditTool'],
    claudeName: 'Edit',
    hint: (n) => `make targeted edits with \`${n}\` (read the file first; match the old text exactly)`,
    pathArgs: (a) => [a.file_path],
  },
  {
    server: 'filesystem',
    tool: 'write_file',
    kind: 'edit',
    title: (a, rel) => `Writing to ${shortenPath(rel(a.file_path))}`,
    geminiArgs: (a, abs) => ({ ...a, file_path: abs(a.file_path) }),
    cls: 'edit',
    aliases: ['WriteFileTool'],
    claudeName: 'Write',
    hint: (n) => `create or overwrite whole files with \`${n}\``,
    pathArgs: (a) => [a.file_path],
  },
  {
    server: 'shell',
    tool: 'run_shell_command',
    kind: 'execute',
    title: (a) => (typeof a.command === 'string' ? a.command : 'Shell command'),
    geminiKeys: { directory: 'dir_path' },
    // Our shell takes a directory relative to the workspace; Gemini CLI's may be absolute.
    geminiArgs: (a, _abs, rel) => {
      const r = rename(a, 'dir_path', 'directory');
      return 'directory' in r ? { ...r, directory: rel(r.directory) } : r;
    },
    cls: 'exec',
    aliases: ['ShellTool'],
    claudeName: 'Bash',
    hint: (n) => `run commands with \`${n}\` (explain what a command that changes the system does before running it)`,
  },
  // Background jobs (`run_shell_command` with `is_background`): listing and reading are read-only, stopping is not.
  {
    server: 'shell',
    tool: 'list_background_processes',
    offeredWith: 'run_shell_command',
    kind: 'read',
    title: () => 'Lists all active and recently completed background processes for the current session.',
    cls: 'read-only',
    aliases: [],
    hint: (n) => `list the background commands you started with \`${n}\``,
  },
  {
    server: 'shell',
    tool: 'read_background_output',
    offeredWith: 'run_shell_command',
    kind: 'read',
    title: (a) => `Reading output for background process ${a.pid}`,
    cls: 'read-only',
    aliases: [],
    hint: (n) => `read a background command's latest output with \`${n}\``,
  },
  {
    server: 'shell',
    tool: 'kill_background_process',
    offeredWith: 'run_shell_command',
    kind: 'execute',
    title: (a) => `Stopping background process ${a.pid}`,
    cls: 'exec',
    aliases: [],
    hint: (n) => `stop a background command with \`${n}\``,
  },
  {
    server: 'shell',
    tool: 'write_to_shell',
    hostOnly: true,
    kind: 'execute',
    title: (a) => `Typing into process ${a.pid}`,
    cls: 'exec',
    aliases: [],
    hint: () => '',
  },
  {
    server: 'web',
    tool: 'web_fetch',
    kind: 'fetch',
    title: (a) =>
      typeof a.url === 'string'
        ? `Fetching content from: ${a.url}`
        : `Processing URLs and instructions from prompt: "${clipPrompt(a.prompt)}"`,
    cls: 'info',
    aliases: ['WebFetchTool'],
    claudeName: 'WebFetch',
    hint: (n) => `fetch web pages with \`${n}\``,
  },
  {
    server: 'web',
    tool: 'google_web_search',
    kind: 'search',
    title: (a) => `Searching the web for: "${a.query ?? ''}"`,
    cls: 'read-only',
    aliases: ['WebSearchTool'],
    claudeName: 'WebSearch',
    hint: (n) => `search the web with \`${n}\``,
  },
  {
    server: 'memory',
    tool: 'save_memory',
    kind: 'edit',
    title: (a) => `Save to memory: ${clipPrompt(a.fact)}`,
    cls: 'memory',
    aliases: ['MemoryTool'],
    hint: (n) =>
      `remember a user fact or preference across sessions with \`${n}\` (only when asked or clearly useful later)`,
  },
  // Plan mode, entered and left by the model: host tools, since they change the host's approval mode.
  {
    server: '@host',
    tool: 'enter_plan_mode',
    kind: 'switch_mode',
    title: (a) => (typeof a.reason === 'string' && a.reason ? a.reason : 'Initiating Plan Mode'),
    cls: 'plan',
    aliases: ['EnterPlanModeTool'],
    hint: (n) =>
      `research and design a broad or risky change before making it with \`${n}\` (read-only; you write the plan)`,
  },
  {
    server: '@host',
    tool: 'exit_plan_mode',
    kind: 'switch_mode',
    title: (a) => `Requesting plan approval for: ${a.plan_filename ?? ''}`,
    cls: 'plan',
    aliases: ['ExitPlanModeTool'],
    hint: (n) => `present a finished plan for the user's approval with \`${n}\``,
  },
  // The model's task list: a host tool (the list is the session's own state); nothing runs or is written.
  {
    server: '@host',
    tool: 'write_todos',
    kind: 'other',
    title: (a) => {
      const n = Array.isArray(a.todos) ? a.todos.length : 0;
      return n ? `Set ${n} todo(s)` : 'Cleared todo list';
    },
    cls: 'read-only',
    aliases: ['WriteTodosTool'],
    claudeName: 'TodoWrite',
    hint: (n) => `keep a task list with \`${n}\` for work of several steps, updating it as each step starts and ends`,
  },
  // Asking the user changes nothing, so it needs no confirmation (read-only) and plan mode allows it.
  {
    server: 'memory',
    tool: 'ask_user',
    kind: 'other',
    title: (a) =>
      `Asking user: ${(Array.isArray(a.questions) ? a.questions : []).map((q) => (q as Args)?.question ?? '').join(', ')}`,
    cls: 'read-only',
    needsUser: true,
    aliases: ['AskUserTool'],
    claudeName: 'AskUserQuestion',
    hint: (n) => `ask the user with \`${n}\` only when you cannot go on without their decision or information`,
  },
];

const byKey = new Map(BUILTIN_TOOLS.map((t) => [`${t.server}/${t.tool}`, t]));
const byName = new Map<string, BuiltinTool>();
for (const t of BUILTIN_TOOLS) {
  for (const n of [t.tool, t.geminiName, ...t.aliases, t.claudeName]) if (n && !byName.has(n)) byName.set(n, t);
}

/** The catalogue row of a built-in server's tool. */
export function builtinTool(server: string, tool: string): BuiltinTool | undefined {
  return byKey.get(`${server}/${tool}`);
}

/** The tool of the same server without which this built-in is not offered to the model (see `offeredWith`). */
export function offeredWith(tool: { serverAlias: string; toolName: string; builtIn: boolean }): string | undefined {
  return tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName)?.offeredWith : undefined;
}

/** The built-in a bare name means: ours, Gemini CLI's (current or legacy) or Claude Code's name. */
export function builtinByName(name: string): BuiltinTool | undefined {
  return byName.get(name);
}

/** Whether only a person can answer the tool (ask_user). */
export function needsUser(tool: { serverAlias: string; toolName: string; builtIn: boolean }): boolean {
  return tool.builtIn && builtinTool(tool.serverAlias, tool.toolName)?.needsUser === true;
}

/** Whether only the host calls the tool (the user's keystrokes), never the model. */
export function hostOnly(tool: { serverAlias: string; toolName: string; builtIn: boolean }): boolean {
  return tool.builtIn && builtinTool(tool.serverAlias, tool.toolName)?.hostOnly === true;
}

/** The name Gemini CLI gives this tool (hooks' `tool_name`, policy rules): built-ins bare, others `mcp_<server>_<tool>`. */
export function geminiToolName(tool: { serverAlias: string; toolName: string; builtIn: boolean }): string {
  const row = tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName) : undefined;
  if (row) return row.geminiName ?? row.tool;
  // The host's own tools (update_topic, activate_skill) are Gemini CLI core tools: bare names.
  if (tool.serverAlias === HOST_TOOLS_ALIAS) return tool.toolName;
  return `mcp_${tool.serverAlias}_${tool.toolName}`;
}

/** geminiToolName of a server's tool known only by alias and name: a built-in when the catalogue has it there. */
export function geminiNameOf(serverAlias: string, toolName: string): string {
  return geminiToolName({ serverAlias, toolName, builtIn: builtinTool(serverAlias, toolName) !== undefined });
}

/** The name Claude Code gives this tool in hooks: `Bash`, `Write`…, others `mcp__<server>__<tool>`. */
export function claudeToolName(tool: { serverAlias: string; toolName: string; builtIn: boolean }): string {
  const row = tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName) : undefined;
  if (row) return row.claudeName ?? row.tool;
  if (tool.serverAlias === HOST_TOOLS_ALIAS) return tool.toolName;
  return `mcp__${tool.serverAlias}__${tool.toolName}`;
}

/**
 * A built-in call's arguments in our spelling (see `geminiArgs`), with relative paths taken against the
 * first workspace root; keys the tool's schema does not know are dropped. Other tools' pass unchanged.
 */
export function acceptForeignArgs(
  tool: { serverAlias: string; toolName: string; builtIn: boolean; inputSchema?: Record<string, unknown> },
  args: Args,
  root: string,
): Args {
  const row = tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName) : undefined;
  if (!row?.geminiArgs) return args;
  const abs = (p: unknown) => (typeof p === 'string' && p !== '' && !isAbsolute(p) ? resolve(root, p) : p);
  const rel = (p: unknown) => (typeof p === 'string' && p !== '' ? relativeTo(root, p) : p);
  const out = row.geminiArgs(args, abs, rel);
  const props = tool.inputSchema?.properties as Record<string, unknown> | undefined;
  if (!props) return out;
  return Object.fromEntries(Object.entries(out).filter(([k]) => k in props || k === 'wait_for_previous'));
}

/** The arguments under Gemini CLI's names (for patterns written against them), or undefined when the same. */
export function inGeminiSpelling(
  tool: { serverAlias: string; toolName: string; builtIn: boolean },
  args: Args,
): Args | undefined {
  const keys = tool.builtIn ? builtinTool(tool.serverAlias, tool.toolName)?.geminiKeys : undefined;
  if (!keys || !Object.keys(args).some((k) => k in keys)) return undefined;
  return Object.fromEntries(Object.entries(args).map(([k, v]) => [keys[k] ?? k, v]));
}

/**
 * The registered tool that plays a built-in's part: the built-in server's own, else any server's tool of
 * that name (a user's replacement server), so callers assume no alias.
 */
export function toolFor<T extends { serverAlias: string; toolName: string; builtIn: boolean }>(
  tools: readonly T[],
  toolName: string,
): T | undefined {
  const row = BUILTIN_TOOLS.find((r) => r.tool === toolName);
  const own = row && tools.find((t) => t.builtIn && t.serverAlias === row.server && t.toolName === row.tool);
  return own ?? tools.find((t) => t.toolName === toolName);
}
