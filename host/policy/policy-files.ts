import { type Dirent, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import * as z from 'zod/mini';
import type { ApprovalMode } from '../scheduler/types.js';
import { parseApprovalMode } from './approval-mode.js';
import { ConfigFileError, readConfigFile } from '../config/config-file.js';
import { closestNames } from '../scheduler/texts.js';
import { builtinByName } from '../tools/builtin-catalogue.js';
import { exposedName } from '../tools/naming.js';
import { compileUserPattern, type UserPattern } from '../user-pattern.js';

/**
 * Policy files in Gemini CLI's format: `[[rule]]` tables in `*.toml` files. Each folder belongs to a tier;
 * a rule's final priority is `tier + priority / 1000`, so any rule of a higher tier beats every rule of a
 * lower one and `priority` orders rules within a tier. Tiers as Gemini CLI numbers them.
 */
export const POLICY_TIERS = { default: 1, extension: 2, workspace: 3, user: 4, admin: 5 } as const;
export type PolicyTier = keyof typeof POLICY_TIERS;

/** A folder (or single file) of policy files and where it comes from, e.g. `{dir, source: 'extension:git'}`. */
export interface PolicySource {
  path: string;
  tier: PolicyTier;
  /** Shown in `/policies` and in the explanation of a decision; defaults to the tier's name. */
  source?: string;
  /** Named by the user for this run or in settings (`--policy`, `policyPaths`): a missing path is a problem. */
  required?: boolean;
}

export type FileDecision = 'allow' | 'deny' | 'ask_user';

/** One rule, ready to match. A rule naming several tools or prefixes stays one rule. */
export interface FileRule {
  /** Names as written (`write_file`, `mcp_github_*`, `*`); absent: any tool (only with `mcpName`). */
  toolNames?: string[];
  mcpName?: string;
  /** `commandPrefix`: matched against each part of a shell command, as the settings' prefix rules are. */
  commandPrefixes?: string[];
  /**
   * `argsPattern`, or `commandRegex` as Gemini CLI turns it into one; tested (in RE2, linear time) on the
   * stable JSON of the arguments.
   */
  argsPattern?: UserPattern;
  decision: FileDecision;
  /** Final priority: tier + priority / 1000. */
  priority: number;
  modes?: ApprovalMode[];
  interactive?: boolean;
  denyMessage?: string;
  allowRedirection?: boolean;
  /** `User: team.toml:12` — file and line, for explanations and `/policies`. */
  origin: string;
}

export interface LoadedPolicies {
  rules: FileRule[];
  /** Files that did not load (a file with any invalid rule loads none), each with file and line. */
  problems: string[];
}

const nonEmpty = () => z.string().check(z.minLength(1));
const stringOrList = z.union([nonEmpty(), z.array(nonEmpty()).check(z.minLength(1))]);
const RuleFields = z.looseObject({
  toolName: z.optional(stringOrList),
  mcpName: z.optional(nonEmpty()),
  argsPattern: z.optional(z.string()),
  commandPrefix: z.optional(stringOrList),
  commandRegex: z.optional(z.string()),
  decision: z.enum(['allow', 'deny', 'ask_user']),
  priority: z.number().check(z.int(), z.minimum(0), z.maximum(999)),
  modes: z.optional(
    z.array(
      z.string().check(z.refine((m) => parseApprovalMode(m) !== undefined, { message: 'unknown approval mode' })),
    ),
  ),
  interactive: z.optional(z.boolean()),
  allowRedirection: z.optional(z.boolean()),
  allow_redirection: z.optional(z.boolean()),
  denyMessage: z.optional(z.string()),
  deny_message: z.optional(z.string()),
});
type RuleFields = z.output<typeof RuleFields>;
/** Fields of a Gemini CLI 0.61 `[[rule]]`; any other is most likely a misspelt condition. */
const RULE_FIELDS = [...Object.keys(RuleFields.shape), 'toolAnnotations', 'subagent'];
const unknownField = (r: RuleFields) => Object.keys(r).find((k) => !RULE_FIELDS.includes(k));

const RuleSchema = RuleFields.check(
  // A misspelt condition (`comandPrefix`) ignored would let an allow rule allow every call of its tool.
  z.refine((r: RuleFields) => unknownField(r) === undefined, {
    error: (issue) => {
      const field = unknownField(issue.input as RuleFields)!;
      const near = closestNames(field, RULE_FIELDS, 1);
      return `unknown field "${field}"${near.length ? ` (did you mean "${near[0]}"?)` : ''}`;
    },
  }),
  // A condition we do not check would make the rule match more than it says: refused, not ignored.
  z.refine((r: RuleFields) => r.toolAnnotations === undefined && r.subagent === undefined, {
    message: 'toolAnnotations and subagent conditions are not supported here; the rule is not loaded',
  }),
  z.refine((r: RuleFields) => r.toolName !== undefined || r.mcpName !== undefined, {
    message: 'a rule needs toolName or mcpName',
  }),
  z.refine((r: RuleFields) => r.commandPrefix === undefined || r.commandRegex === undefined, {
    message: 'commandPrefix and commandRegex cannot be used together',
  }),
  z.refine(
    (r: RuleFields) => (r.commandPrefix === undefined && r.commandRegex === undefined) || r.argsPattern === undefined,
    { message: 'commandPrefix/commandRegex and argsPattern cannot be used together' },
  ),
);

/** The folders Gemini CLI reads, in tier order: system (admin), user, workspace (trusted folders only). */
export function standardPolicySources(opts: {
  home: string;
  cwd: string;
  trusted: boolean;
  systemSettingsPath: string;
}): PolicySource[] {
  const out: PolicySource[] = [
    { path: join(dirname(opts.systemSettingsPath), 'policies'), tier: 'admin' },
    { path: join(opts.home, '.gemini', 'policies'), tier: 'user' },
  ];
  const workspace = join(resolve(opts.cwd), '.gemini', 'policies');
  if (opts.trusted && workspace !== out[1]!.path) out.push({ path: workspace, tier: 'workspace' });
  return out;
}

/**
 * Loads every source. A file with any invalid rule is rejected whole, as Gemini CLI does: loading the
 * rest of it could drop a deny and keep the allow it guarded. Each refusal names the file and line.
 */
export function loadPolicyFiles(sources: readonly PolicySource[]): LoadedPolicies {
  const rules: FileRule[] = [];
  const problems: string[] = [];
  for (const src of sources) {
    for (const file of tomlFiles(src, problems)) loadFile(file, src, rules, problems);
  }
  return { rules, problems };
}

/**
 * A folder's `*.toml` files (sorted), links to files included, or the file itself. A missing folder is no
 * problem unless the user named it (`--policy`, `policyPaths`).
 */
function tomlFiles(src: PolicySource, problems: string[]): string[] {
  const path = src.path;
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && src.required) problems.push(`${path}: no such policy file or folder`);
    if (code === 'ENOENT') return [];
    if (code === 'ENOTDIR') return [path];
    problems.push(`${path}: cannot read policy folder: ${(err as Error).message}`);
    return [];
  }
  const out: string[] = [];
  for (const e of entries) {
    if (!e.name.endsWith('.toml')) continue;
    const file = join(path, e.name);
    if (e.isFile() || (e.isSymbolicLink() && linkedFile(file, problems))) out.push(file);
  }
  return out.sort();
}

/** A link is followed to a regular file; a dangling link or one to anything else is reported, not skipped. */
function linkedFile(file: string, problems: string[]): boolean {
  try {
    if (statSync(file).isFile()) return true;
    problems.push(`${file}: the link does not lead to a regular file; not loaded`);
  } catch (err) {
    problems.push(`${file}: the link cannot be followed (${(err as NodeJS.ErrnoException).code}); not loaded`);
  }
  return false;
}

function loadFile(file: string, src: PolicySource, rules: FileRule[], problems: string[]): void {
  let text: string;
  let doc: Record<string, unknown>;
  try {
    // A --policy argument may name a FIFO or a device: the safe reader refuses it instead of waiting.
    const read = readConfigFile(file);
    if (read === undefined) return;
    text = read;
    doc = parse(text) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof ConfigFileError) {
      problems.push(err.message);
      return;
    }
    const where = err instanceof TomlError ? `${file}:${err.line}` : file;
    problems.push(`${where}: ${err instanceof TomlError ? err.message.split('\n')[0] : (err as Error).message}`);
    return;
  }
  const raw = doc.rule;
  if (raw === undefined) return;
  if (!Array.isArray(raw)) {
    problems.push(`${file}:1: "rule" must be an array of tables ([[rule]])`);
    return;
  }
  const lines = ruleLines(text);
  const label = src.source ?? src.tier[0]!.toUpperCase() + src.tier.slice(1);
  const loaded: FileRule[] = [];
  const refused: string[] = [];
  raw.forEach((entry, i) => {
    const line = lines[i] ?? 1;
    const rule = toRule(entry, src.tier, `${label}: ${basename(file)}:${line}`);
    if (typeof rule === 'string') refused.push(`${file}:${line}: rule #${i + 1}: ${rule}`);
    else loaded.push(rule);
  });
  if (refused.length === 0) rules.push(...loaded);
  else problems.push(...refused.map((r) => `${r} (the whole file is rejected: none of its ${raw.length} rules apply)`));
}

/** The line of each `[[rule]]` header, in order. */
function ruleLines(text: string): number[] {
  const out: number[] = [];
  text.split('\n').forEach((l, i) => {
    if (/^\s*\[\[\s*rule\s*\]\]/.test(l)) out.push(i + 1);
  });
  return out;
}

/** A checked rule, or why it is refused. */
function toRule(entry: unknown, tier: PolicyTier, origin: string): FileRule | string {
  const parsed = RuleSchema.safeParse(entry);
  if (!parsed.success) {
    return parsed.error.issues.map((i) => `${i.path.join('.') || 'rule'}: ${i.message}`).join('; ');
  }
  const r = parsed.data;
  const toolNames = r.toolName === undefined ? undefined : [r.toolName].flat();
  if ((r.commandPrefix !== undefined || r.commandRegex !== undefined) && toolNames?.some((n) => !isShellName(n)))
    return 'commandPrefix and commandRegex apply to run_shell_command only';
  let argsPattern: UserPattern | undefined;
  const pattern = r.commandRegex !== undefined ? `"command":"${r.commandRegex}` : r.argsPattern;
  if (pattern !== undefined) {
    try {
      argsPattern = compileUserPattern(pattern);
    } catch (err) {
      return `invalid regular expression: ${(err as Error).message}`;
    }
  }
  return {
    // A command condition without a tool name means the shell tool, as Gemini CLI reads it.
    toolNames:
      toolNames ?? (r.commandPrefix !== undefined || r.commandRegex !== undefined ? ['run_shell_command'] : undefined),
    ...(r.mcpName !== undefined ? { mcpName: r.mcpName } : {}),
    ...(r.commandPrefix !== undefined ? { commandPrefixes: [r.commandPrefix].flat() } : {}),
    ...(argsPattern ? { argsPattern } : {}),
    decision: r.decision,
    priority: POLICY_TIERS[tier] + r.priority / 1000,
    ...(r.modes ? { modes: [...new Set(r.modes.map((m) => parseApprovalMode(m)!))] } : {}),
    ...(r.interactive !== undefined ? { interactive: r.interactive } : {}),
    ...((r.denyMessage ?? r.deny_message) !== undefined ? { denyMessage: r.denyMessage ?? r.deny_message } : {}),
    ...((r.allowRedirection ?? r.allow_redirection) !== undefined
      ? { allowRedirection: r.allowRedirection ?? r.allow_redirection }
      : {}),
    origin,
  };
}

/** The shell tool's catalogue row: command conditions apply to it alone. */
const SHELL = builtinByName('run_shell_command')!;

/** Any name of the shell tool: ours, Gemini CLI's or Claude Code's (the catalogue's), or its exposed name. */
function isShellName(n: string): boolean {
  return builtinByName(n) === SHELL || n === exposedName(SHELL.server, SHELL.tool);
}
