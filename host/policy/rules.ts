import type { ToolRef } from '../scheduler/types.js';
import { patternNamesTool } from '../tools/naming.js';

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

const RULE_RE = /^\s*([^\s(]+)\s*(?:\((.*)\)\s*)?$/s;

export function parseRule(raw: string): ToolRule | undefined {
  const m = RULE_RE.exec(raw);
  if (!m) return undefined;
  const args = m[2]?.trim();
  return { raw, name: m[1], ...(args !== undefined ? { args } : {}) };
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

type Named = Pick<ToolRef, 'exposedName' | 'serverAlias' | 'toolName'>;

/** Whether the rule's name covers the tool (ignoring the argument part); one definition with the registry's. */
export function ruleNames(rule: ToolRule, tool: Named): boolean {
  return patternNamesTool(rule.name, tool);
}

/** Rules naming the tool, split into whole-tool rules and argument (shell prefix) rules. */
export function matchRules(rules: readonly ToolRule[], tool: Named): { whole: boolean; prefixes: string[] } {
  let whole = false;
  const prefixes: string[] = [];
  for (const rule of rules) {
    if (!ruleNames(rule, tool)) continue;
    if (rule.args === undefined || rule.args === '') whole = true;
    else prefixes.push(rule.args);
  }
  return { whole, prefixes };
}
