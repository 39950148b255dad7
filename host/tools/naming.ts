import { createHash } from 'node:crypto';

/** Gemini function names: `[A-Za-z_][A-Za-z0-9_.:-]*`, at most this many characters. */
export const MAX_NAME_LENGTH = 64;
/** Readable head kept when a name is too long; `_` + 8 hex digits fill the rest to 64. */
const HEAD_LENGTH = 55;
export const SEPARATOR = '__';

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

/** `run_shell_command(git)` → `{name: 'run_shell_command', arg: 'git'}`; a bare name has no arg. */
export function parseToolPattern(pattern: string): { name: string; arg?: string } {
  const m = /^([^()]+?)\s*\((.*)\)\s*$/s.exec(pattern.trim());
  return m ? { name: m[1]!.trim(), arg: m[2]! } : { name: pattern.trim() };
}

type NamedTool = { exposedName: string; serverAlias: string; toolName: string };

/**
 * Whether a settings entry (tools.core / tools.exclude / tools.allowed style) names this tool: the Gemini
 * CLI bare form (`read_file`, `run_shell_command(git)`), the prefixed form (`shell__run_shell_command`) or
 * a whole server (`shell__*`). The `(…)` part is ignored here: it narrows a tool's use, not the tool.
 */
export function patternNamesTool(pattern: string, tool: NamedTool): boolean {
  return nameCoversTool(parseToolPattern(pattern).name, tool);
}

/** `patternNamesTool` for a name already taken out of its pattern (policy rules parse once). */
export function nameCoversTool(name: string, tool: NamedTool): boolean {
  if (name === `${tool.serverAlias}${SEPARATOR}*`) return true;
  return name === tool.exposedName || name === tool.toolName || name === `${tool.serverAlias}${SEPARATOR}${tool.toolName}`;
}

/**
 * Whether `tools.core` limits this tool: built-in tools always, a third-party server only when an
 * entry names it with its prefix (Gemini CLI's coreTools does not filter MCP tools). Registry and
 * policy share it so a tool the model is offered is never one the policy refuses.
 */
export function coreLimits(core: readonly string[], tool: { builtIn: boolean; serverAlias: string }): boolean {
  return tool.builtIn || core.some((p) => parseToolPattern(p).name.startsWith(`${tool.serverAlias}${SEPARATOR}`));
}
