import type { ToolRef } from '../scheduler/types.js';
import { parseToolPattern } from '../config/tool-pattern.js';
import { nameCoversTool } from '../tools/naming.js';

/**
 * One entry of `tools.allowed` / `tools.exclude` / `tools.core` / `--allowed-tools`: a tool name in the
 * prefixed form (`shell__run_shell_command(git log)`), the Gemini CLI form (`run_shell_command(git)`),
 * or a server wildcard (`github__*`).
 */
export interface ToolRule {
  raw: string;
  /** `server__tool`, bare `tool`, or `server__*`. */
  name: string;
  /** The text inside the parentheses (a shell command prefix), when given. */
  args?: string;
}

/** Parsed like every other tool pattern (`parseToolPattern`), so policy and the registry read entries alike. */
export function parseRule(raw: string): ToolRule | undefined {
  const { name, arg } = parseToolPattern(raw);
  if (!name) return undefined;
  const args = arg?.trim();
  return { raw, name, ...(args !== undefined ? { args } : {}) };
}

export function parseRules(list: readonly string[] | undefined): ToolRule[] {
  const out: ToolRule[] = [];
  for (const raw of list ?? []) {
    if (typeof raw !== 'string') continue;
    const rule = parseRule(raw);
    if (rule) out.push(rule);
  }
  return out;
}

type Named = Pick<ToolRef, 'exposedName' | 'serverAlias' | 'toolName' | 'builtIn'>;

/** What no rule says of a tool: shared, since most lists are empty and each start asks of every tool. */
const NO_MATCH: { whole: boolean; prefixes: readonly string[] } = Object.freeze({
  whole: false,
  prefixes: Object.freeze([]),
});

/** Rules naming the tool, split into whole-tool rules and argument (shell prefix) rules. */
export function matchRules(rules: readonly ToolRule[], tool: Named): { whole: boolean; prefixes: readonly string[] } {
  if (rules.length === 0) return NO_MATCH;
  let whole = false;
  const prefixes: string[] = [];
  for (const rule of rules) {
    if (!nameCoversTool(rule.name, tool)) continue;
    if (rule.args === undefined || rule.args === '') whole = true;
    else prefixes.push(rule.args);
  }
  return { whole, prefixes };
}
