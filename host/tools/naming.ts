import { createHash } from 'node:crypto';
import { parseToolPattern } from '../config/tool-pattern.js';
import { builtinByName } from './builtin-catalogue.js';
import { SEPARATOR } from '../../protocol/tool-names.js';

/** Gemini function names: `[A-Za-z_][A-Za-z0-9_.:-]*`, at most this many characters. */
export const MAX_NAME_LENGTH = 64;
/** Readable head kept when a name is too long; `_` + 8 hex digits fill the rest to 64. */
const HEAD_LENGTH = 55;
export { SEPARATOR };

/** Replaces every character Gemini does not accept in a function name with `_`. */
export function sanitizeNamePart(part: string): string {
  const clean = part.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return clean === '' ? '_' : clean;
}

/**
 * The name the model sees for a server's tool: `<alias>__<tool>`, sanitised, and when longer than 64
 * characters the first 55 plus `_` and 8 hex digits of a SHA-256 over the unsanitised `alias\0tool`, so
 * two long names sharing a head stay distinct. Not reversible: callers keep a map back to (server, tool).
 */
export function exposedName(alias: string, tool: string): string {
  let name = `${sanitizeNamePart(alias)}${SEPARATOR}${sanitizeNamePart(tool)}`;
  if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
  if (name.length <= MAX_NAME_LENGTH) return name;
  const hash = createHash('sha256').update(`${alias}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, HEAD_LENGTH)}_${hash}`;
}

type NamedTool = { exposedName: string; serverAlias: string; toolName: string; builtIn: boolean };

/**
 * Whether a settings entry (tools.core / tools.exclude / tools.allowed style) names this tool: the Gemini
 * CLI bare form (`read_file`, `run_shell_command(git)`), the prefixed form (`shell__run_shell_command`) or
 * a whole server (`shell__*`). The `(…)` part is ignored here: it narrows a tool's use, not the tool.
 */
export function patternNamesTool(pattern: string, tool: NamedTool): boolean {
  return nameCoversTool(parseToolPattern(pattern).name, tool);
}

/**
 * `patternNamesTool` for a name already taken out of its pattern (policy rules parse once). A bare name
 * (`write_file`, Gemini CLI's `grep_search`, a legacy class name like `ShellTool`, Claude Code's `Bash`)
 * covers only the built-in tool it means (see builtin-catalogue), never a third-party server's tool of the
 * same name: that one is named `server__tool`, `server__*`, or Gemini CLI's `mcp_<server>_<tool>` /
 * `mcp_<server>_*`.
 */
export function nameCoversTool(name: string, tool: NamedTool): boolean {
  const { serverAlias: server, toolName } = tool;
  if (name === `${server}${SEPARATOR}*` || name === `mcp_${server}_*`) return true;
  if (name === tool.exposedName) return true;
  if (name === `${server}${SEPARATOR}${toolName}` || name === `mcp_${server}_${toolName}`) return true;
  if (!tool.builtIn) return false;
  const row = builtinByName(name);
  return row !== undefined && row.server === server && row.tool === toolName;
}

/**
 * The allowlist `tools.core` sets, as Gemini CLI (0.41 and later) applies it: once `tools.core` is
 * present — even empty — every tool, built-in or from any MCP server, trusted or not, is offered only
 * when `tools.core` or an allow rule (`tools.allowed`, `--allowed-tools`) names it. Undefined: no limit.
 */
export function effectiveCore(
  core: readonly string[] | undefined,
  allowed: readonly (string[] | undefined)[],
): string[] | undefined {
  if (core === undefined) return undefined;
  return [...core, ...allowed.flatMap((l) => l ?? [])];
}
