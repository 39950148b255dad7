import type { ApprovalMode, PolicyTool } from '../scheduler/types.js';
import { builtinTool, geminiToolName, inGeminiSpelling } from '../tools/builtin-catalogue.js';
import { nameCoversTool } from '../tools/naming.js';
import type { FileRule } from './policy-files.js';
import { anyPartMatches, commandParts, shellDecision, writesBeyondCommand } from './shell-rules.js';

/** The rule of the policy files that decides a call: the matching rule of highest priority. */
export interface FileVerdict {
  rule: FileRule;
}

/**
 * Policy file rules as Gemini CLI matches them: tool name (with `*` wildcards and `mcp_<server>_…` forms,
 * a bare name meaning only the built-in), `mcpName`, approval modes, interactive or not, and the
 * arguments. Command prefixes are checked per part of a compound command like the settings' prefix rules:
 * an allow needs every part covered, a deny or ask any part.
 */
export class FileRules {
  /** Highest priority first; equal priorities keep file order. */
  private readonly rules: FileRule[];

  constructor(rules: readonly FileRule[]) {
    this.rules = [...rules].sort((a, b) => b.priority - a.priority);
  }

  list(): readonly FileRule[] {
    return this.rules;
  }

  async decide(
    tool: PolicyTool,
    args: Record<string, unknown>,
    mode: ApprovalMode,
    interactive: boolean,
  ): Promise<FileVerdict | undefined> {
    for (const rule of this.rules) {
      if (!this.applies(rule, tool, mode, interactive)) continue;
      if (await argsMatch(rule, tool, args, mode)) return { rule };
    }
    return undefined;
  }

  /**
   * The decision every call of the tool gets whatever its arguments (the first applicable rule that has no
   * argument condition), unless a rule of higher priority with an argument condition could decide first.
   */
  wholeDecision(tool: PolicyTool, mode: ApprovalMode, interactive: boolean): FileRule | undefined {
    for (const rule of this.rules) {
      if (!this.applies(rule, tool, mode, interactive)) continue;
      if (rule.argsPattern || rule.commandPrefixes) return undefined;
      return rule;
    }
    return undefined;
  }

  /** True when an applicable rule of any decision names the tool with a command or argument condition. */
  hasCommandRules(tool: PolicyTool, mode: ApprovalMode, interactive: boolean): boolean {
    return this.rules.some((r) => (r.commandPrefixes || r.argsPattern) && this.applies(r, tool, mode, interactive));
  }

  /** True when some applicable allow rule names the tool (with or without argument conditions). */
  mayAllow(tool: PolicyTool, mode: ApprovalMode, interactive: boolean): boolean {
    return this.rules.some((r) => r.decision === 'allow' && this.applies(r, tool, mode, interactive));
  }

  private applies(rule: FileRule, tool: PolicyTool, mode: ApprovalMode, interactive: boolean): boolean {
    if (rule.modes?.length && !rule.modes.includes(mode)) return false;
    if (rule.interactive !== undefined && rule.interactive !== interactive) return false;
    return ruleNamesTool(rule, tool);
  }
}

/** A built-in of the catalogue is no MCP server's tool for `mcpName` and `mcp_*` rules, as in Gemini CLI. */
function isServerTool(tool: PolicyTool): boolean {
  return !(tool.builtIn && builtinTool(tool.serverAlias, tool.toolName));
}

export function ruleNamesTool(rule: Pick<FileRule, 'toolNames' | 'mcpName'>, tool: PolicyTool): boolean {
  if (rule.mcpName !== undefined) {
    if (!isServerTool(tool)) return false;
    if (rule.mcpName !== '*' && rule.mcpName !== tool.serverAlias) return false;
    // With mcpName the tool name is the server's own name for the tool.
    return (
      !rule.toolNames || rule.toolNames.some((n) => n === '*' || n === tool.toolName || wildcard(n, tool.toolName))
    );
  }
  return !rule.toolNames || rule.toolNames.some((n) => nameMatches(n, tool));
}

function nameMatches(name: string, tool: PolicyTool): boolean {
  if (name === '*') return true;
  if (name === 'mcp_*') return isServerTool(tool);
  if (nameCoversTool(name, tool)) return true;
  if (!name.includes('*')) return false;
  // `mcp_*_search`: that tool name on any server; other wildcards against Gemini CLI's and our names.
  const m = /^mcp_\*_(.+)$/.exec(name);
  if (m) return isServerTool(tool) && wildcard(m[1]!, tool.toolName);
  return wildcard(name, geminiToolName(tool)) || wildcard(name, tool.exposedName);
}

function wildcard(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return false;
  const re = new RegExp(`^${pattern.split('*').map(escapeRegex).join('.*')}$`);
  return re.test(value);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function argsMatch(rule: FileRule, tool: PolicyTool, args: Record<string, unknown>, mode: ApprovalMode) {
  const command = typeof args.command === 'string' ? args.command : undefined;
  if (rule.commandPrefixes) {
    if (command === undefined) return false;
    if (rule.decision !== 'allow') return anyPartMatches(command, rule.commandPrefixes);
    // allowRedirection lifts the "redirection asks" rule for this rule only.
    const decision = await shellDecision(command, rule.commandPrefixes, rule.allowRedirection ? 'autoEdit' : mode);
    return decision === 'allow';
  }
  if (!rule.argsPattern) return true;
  const pattern = rule.argsPattern;
  const test = (a: Record<string, unknown>) => {
    const other = inGeminiSpelling(tool, a);
    return pattern.test(stableStringify(a)) || (other !== undefined && pattern.test(stableStringify(other)));
  };
  if (!test(args)) return false;
  // An allow by pattern on a shell command holds only when every part of a compound command matches it,
  // and it allows running the command, not writing files with it: a redirection or an output option needs
  // what a write needs, as with a prefix rule.
  if (rule.decision === 'allow' && command !== undefined && tool.toolName === 'run_shell_command') {
    const parts = await commandParts(command);
    if (!parts?.every((p) => test({ ...args, command: p }))) return false;
    return (await writesBeyondCommand(command, mode, rule.allowRedirection === true)) === undefined;
  }
  return true;
}

/**
 * Gemini CLI's stable JSON of a call's arguments: keys sorted, and each top-level `"key":value` pair
 * wrapped in NUL characters so a pattern can anchor on a whole argument.
 */
export function stableStringify(value: unknown): string {
  const walk = (v: unknown, top: boolean): string => {
    if (v === undefined || v === null || typeof v === 'function' || typeof v === 'symbol') return 'null';
    if (typeof v !== 'object') return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map((x) => walk(x, false)).join(',')}]`;
    const pairs: string[] = [];
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      const pair = `${JSON.stringify(k)}:${walk(x, false)}`;
      pairs.push(top ? `\0${pair}\0` : pair);
    }
    return `{${pairs.join(',')}}`;
  };
  return walk(value, true);
}
