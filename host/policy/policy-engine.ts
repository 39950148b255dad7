import { FatalConfigError } from '../errors.js';
import type { ConfirmationDetail } from '../../protocol/confirmation.js';
import type { ApprovalMode, UserAnswer, Policy, PolicyInput, PolicyTool, Verdict } from '../scheduler/types.js';
import { matchRules, parseRules, type ToolRule } from './rules.js';
import { allPartsMatch, anyPartMatches, rootCommandsOf, shellDecision, unknownProgramPart } from './shell-rules.js';
import { classifyTool, type ToolClass } from './tool-class.js';
import { SessionRules } from './session-rules.js';
import { modeAllowedUntrusted } from './approval-mode.js';
import { FileRules } from './file-rules.js';
import type { FileRule } from './policy-files.js';
import { isPlanFile, isPlanWriteTool, PLAN_WRITE_DENIAL } from './plan-files.js';

/** The settings keys policy reads; the full `Settings` (host/config/settings-schema.ts) is assignable to it. */
export interface PolicySettings {
  tools?: { allowed?: string[]; exclude?: string[]; core?: string[]; confirmationRequired?: string[] };
  mcp?: { allowed?: string[]; excluded?: string[] };
  security?: { disableYoloMode?: boolean };
}

export interface PolicyEngineOptions {
  settings?: PolicySettings;
  approvalMode?: ApprovalMode;
  /** Headless runs turn every ask into a deny unless an allow rule applies. */
  interactive: boolean;
  /** `--allowed-tools`. */
  allowedTools?: string[];
  /** `--allowed-mcp-server-names`: these servers' tools are allowed. */
  allowedMcpServerNames?: string[];
  /** The folder is not trusted: the approval mode stays `default` or `plan` (see `startRefused`). */
  untrustedFolder?: boolean;
  /** `tools.sandboxAutoApprove`: a shell command that runs sandboxed needs no confirmation. */
  sandboxAutoApprove?: boolean;
  /** Rules of the policy files (policy-files.ts), every tier. */
  fileRules?: readonly FileRule[];
}

export const DENIED_BY_POLICY = 'Tool execution denied by policy.';
export const headlessDenial = (name: string) =>
  `Tool execution for "${name}" requires user confirmation, which is not supported in non-interactive mode.`;

export type { PolicyTool } from '../scheduler/types.js';

type Rule = 'allow' | 'ask' | 'deny';

/**
 * What each approval mode decides for a tool class before the per-tool rules, or undefined to let
 * the rules decide (read-only tools are allowed by the rules in every mode). A mode that allows only
 * read-only tools answers `deny` for every other class here.
 */
const MODE_FIRST: Record<ApprovalMode, (cls: ToolClass) => Rule | undefined> = {
  default: () => undefined,
  autoEdit: () => undefined,
  yolo: () => 'allow',
  // Leaving plan mode is the plan tools' own decision (modeSwitchVerdict); plan files are the one write.
  plan: (cls) => (cls === 'read-only' || cls === 'plan' ? undefined : 'deny'),
};

/** What each mode does with a class that no allow rule covers. */
const MODE_CLASS: Record<ApprovalMode, Partial<Record<ToolClass, Rule>>> = {
  default: {},
  autoEdit: { edit: 'allow', info: 'allow' },
  yolo: {},
  plan: {},
};

/** Gemini CLI 0.61's words when the model switches to the mode it is already in (or leaves one it is not in). */
export const ALREADY_PLANNING = 'You are already in Plan Mode.';
export const NOT_PLANNING = 'You are not currently in Plan Mode. Use enter_plan_mode first to design a plan.';

export const PLAN_MODE_DENIAL =
  'Plan mode is on: only read-only tools may run. Investigate with read-only tools, write your plan to the plans folder and present it with exit_plan_mode; the user approves it to carry it out.';

/** How a shell command stands against the allow rules: the shell check's answer, or (no command known) whether any rule could allow some call. */
type ShellStanding = 'allow' | 'ask' | 'some';

/**
 * Decides allow / ask / deny for a call before it runs, and for an in-call confirmation raised by a
 * server; keeps the session's "always" rules. Nothing here does I/O besides parsing shell commands.
 */
export class PolicyEngine implements Policy {
  readonly interactive: boolean;
  readonly session = new SessionRules();
  private mode: ApprovalMode;
  private readonly modeListeners = new Set<(mode: ApprovalMode) => void>();
  private readonly allowed: ToolRule[];
  private readonly exclude: ToolRule[];
  private readonly core: ToolRule[] | undefined;
  private readonly confirmationRequired: ToolRule[];
  private readonly allowedServers: Set<string>;
  private readonly excludedServers: Set<string>;
  private readonly disableYolo: boolean;
  private readonly untrustedFolder: boolean;
  /** The starting mode asked for (flag or settings) that an untrusted folder refused; the run is in default. */
  readonly startRefused: ApprovalMode | undefined;
  private readonly sandboxAutoApprove: boolean;
  readonly files: FileRules;
  /** The session's plans folder, where plan mode lets the model write its plan (see setPlansFolder). */
  private plansFolder?: () => string;

  constructor(opts: PolicyEngineOptions) {
    this.files = new FileRules(opts.fileRules ?? []);
    const s = opts.settings ?? {};
    this.interactive = opts.interactive;
    this.disableYolo = s.security?.disableYoloMode === true;
    this.untrustedFolder = opts.untrustedFolder === true;
    this.sandboxAutoApprove = opts.sandboxAutoApprove === true;
    this.allowed = [...parseRules(s.tools?.allowed), ...parseRules(opts.allowedTools)];
    this.exclude = parseRules(s.tools?.exclude);
    // Present, even empty, `tools.core` is an allowlist for every tool (see effectiveCore).
    this.core = s.tools?.core !== undefined ? parseRules(s.tools.core) : undefined;
    this.confirmationRequired = parseRules(s.tools?.confirmationRequired);
    this.allowedServers = new Set([...(s.mcp?.allowed ?? []), ...(opts.allowedMcpServerNames ?? [])]);
    this.excludedServers = new Set(s.mcp?.excluded ?? []);
    this.mode = 'default';
    const start = opts.approvalMode ?? 'default';
    // At start-up a refused mode is a notice, not an error: the run goes on in default, as Gemini CLI does.
    this.startRefused = this.untrustedFolder && !modeAllowedUntrusted(start) ? start : undefined;
    this.setApprovalMode(this.startRefused ? 'default' : start);
  }

  /** The session's plans folder (it follows the session: `/resume` moves it); until set, plan mode writes nothing. */
  setPlansFolder(folder: () => string): void {
    this.plansFolder = folder;
  }

  /** The plans folder while the session is in plan mode (where the model writes its plan), else undefined. */
  activePlansFolder(): string | undefined {
    return this.mode === 'plan' ? this.plansFolder?.() : undefined;
  }

  getApprovalMode(): ApprovalMode {
    return this.mode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    if (mode === 'yolo' && this.disableYolo)
      throw new FatalConfigError('YOLO mode is disabled by security.disableYoloMode.');
    if (this.untrustedFolder && !modeAllowedUntrusted(mode)) {
      throw new Error(
        'This folder is not trusted: the approval mode stays default or plan (run "gemini-mcp trust" to trust it).',
      );
    }
    this.changeMode(mode);
  }

  /**
   * Calls `fn` whenever the approval mode changes, whoever changed it (the user, or an "allow always" on
   * an edit that moves default to autoEdit): what shows the mode (an editor, a footer) stays true.
   * Returns the unsubscribe.
   */
  onModeChange(fn: (mode: ApprovalMode) => void): () => void {
    this.modeListeners.add(fn);
    return () => this.modeListeners.delete(fn);
  }

  private changeMode(mode: ApprovalMode): void {
    if (this.mode === mode) return;
    this.mode = mode;
    for (const fn of this.modeListeners) fn(mode);
  }

  /**
   * The one decision, for a call before it runs (`input.args`) and for a confirmation its server
   * raises mid-call (`input.detail` as well, which names the command or file actually affected).
   * Headless runs turn an ask into a deny.
   */
  async decide(tool: PolicyTool, input: PolicyInput, mode: ApprovalMode = this.mode): Promise<Verdict> {
    const cls = classifyTool(tool);
    const command = cls === 'exec' ? commandOf(input) : undefined;
    const hook = input.hook;
    // A blocking hook decides first: its reason is what the model is told, as in Gemini CLI.
    if (hook?.decision === 'deny')
      return { decision: 'deny', reason: `hook: ${hook.reason}`, message: `Tool execution blocked: ${hook.reason}` };
    const denied = await this.staticDeny(tool, command);
    if (denied) return { decision: 'deny', reason: denied, message: DENIED_BY_POLICY };
    const shell: ShellStanding =
      cls !== 'exec' || command === undefined ? 'ask' : await shellDecision(command, this.shellAllowances(tool), mode);
    const args = command !== undefined ? { ...input.args, command } : input.args;
    const file = await this.files.decide(tool, args, mode, this.interactive);
    const memoryFile = input.detail?.filePath;
    const planWrite = mode === 'plan' && isPlanWriteTool(tool) ? this.planWriteVerdict(input) : undefined;
    let verdict = file
      ? this.fileVerdict(file.rule, cls, mode, planWrite)
      : (planWrite ??
        this.rules(tool, cls, mode, shell, memoryFile !== undefined && this.session.hasMemoryFile(memoryFile)));
    // A hook's ask turns an allow into a question; Claude Code's explicit allow answers a question. Neither
    // lifts a deny.
    if (hook?.decision === 'ask' && verdict.decision === 'allow')
      verdict = { decision: 'ask', reason: `hook: ${hook.reason}` };
    if (hook?.decision === 'allow' && verdict.decision === 'ask')
      verdict = { decision: 'allow', reason: `hook: ${hook.reason}` };
    if (verdict.decision !== 'deny' && command !== undefined && this.commandRulesInForce(tool, mode))
      verdict = (await unknownProgramVerdict(command, mode)) ?? verdict;
    if (verdict.decision === 'ask' && !this.interactive) {
      return { decision: 'deny', reason: `headless: ${verdict.reason}`, message: headlessDenial(tool.exposedName) };
    }
    return verdict;
  }

  /**
   * True when every call of the tool is denied whatever its arguments: excluded, or, in a headless
   * run, a tool that the rules would always ask about. A tool named by an allow rule with arguments
   * (`run_shell_command(git)`) is not, since some of its calls may pass. Reads the current approval
   * mode and session rules, so ask again after either changes.
   */
  isStaticallyDenied(tool: PolicyTool): boolean {
    if (this.wholeDenyReason(tool) !== undefined) return true;
    const cls = classifyTool(tool);
    if (cls === 'plan') return this.modeSwitchVerdict(tool, this.mode).decision === 'deny';
    // In plan mode the write tools stay offered for the plan file (each call is checked for its path).
    if (this.mode === 'plan' && this.plansFolder && isPlanWriteTool(tool)) return false;
    // A mode that denies whole classes (plan) does so in the chat too: those tools are not declared.
    if (MODE_FIRST[this.mode](cls) === 'deny') return true;
    const whole = this.files.wholeDecision(tool, this.mode, this.interactive);
    if (whole) return whole.decision === 'deny' || (whole.decision === 'ask_user' && !this.interactive);
    if (this.interactive) return false;
    if (this.files.mayAllow(tool, this.mode, this.interactive)) return false;
    if (matchRules(this.allowed, tool).prefixes.length > 0) return false;
    const shell: ShellStanding = this.shellAllowances(tool).length > 0 ? 'some' : 'ask';
    return this.rules(tool, cls, this.mode, shell, false).decision !== 'allow';
  }

  /**
   * What a policy file rule decides; a mode that denies a whole class (plan) still denies it, since an
   * allow written for other modes must not open plan mode.
   */
  private fileVerdict(rule: FileRule, cls: ToolClass, mode: ApprovalMode, planWrite?: Verdict): Verdict {
    const reason = `policy rule ${rule.origin} (priority ${rule.priority.toFixed(3)})`;
    if (rule.decision === 'deny') return { decision: 'deny', reason, message: rule.denyMessage ?? DENIED_BY_POLICY };
    if (planWrite?.decision === 'deny') return planWrite;
    if (MODE_FIRST[mode](cls) === 'deny' && !planWrite) {
      return { decision: 'deny', reason: `${cls} tools are not allowed in ${mode} mode`, message: PLAN_MODE_DENIAL };
    }
    return { decision: rule.decision === 'allow' ? 'allow' : 'ask', reason };
  }

  /** The allow/ask table after the deny rules; one place for every path. */
  private rules(
    tool: PolicyTool,
    cls: ToolClass,
    mode: ApprovalMode,
    shell: ShellStanding,
    memoryFileAllowed: boolean,
  ): Verdict {
    if (cls === 'plan') return this.modeSwitchVerdict(tool, mode);
    const first = MODE_FIRST[mode](cls);
    if (first === 'deny') {
      return {
        decision: 'deny',
        reason: `${cls} tools are not allowed in ${mode} mode`,
        message: mode === 'plan' ? PLAN_MODE_DENIAL : DENIED_BY_POLICY,
      };
    }
    if (first === 'allow') return { decision: 'allow', reason: mode };
    if (matchRules(this.confirmationRequired, tool).whole)
      return { decision: 'ask', reason: 'tools.confirmationRequired' };
    if (tool.trusted) return { decision: 'allow', reason: 'trusted server' };
    if (cls === 'read-only') return { decision: 'allow', reason: 'read-only' };
    if (this.wholeAllowed(tool)) return { decision: 'allow', reason: 'allow rule' };
    const byMode = MODE_CLASS[mode][cls];
    if (byMode === 'allow') return { decision: 'allow', reason: `${cls} in ${mode} mode` };
    if (byMode === 'deny') return { decision: 'deny', reason: `${cls} in ${mode} mode`, message: DENIED_BY_POLICY };
    switch (cls) {
      case 'exec':
        if (shell !== 'ask') return { decision: 'allow', reason: 'shell prefix rule' };
        // The sandbox bounds what the command can touch; the user opted out of asking for it.
        return this.sandboxAutoApprove && tool.sandboxed
          ? { decision: 'allow', reason: 'sandboxed (tools.sandboxAutoApprove)' }
          : { decision: 'ask', reason: 'command not allow-listed' };
      case 'memory':
        return memoryFileAllowed
          ? { decision: 'allow', reason: 'memory file allowed this session' }
          : { decision: 'ask', reason: 'memory save' };
      case 'external':
        return { decision: 'ask', reason: 'third-party tool' };
      default:
        return { decision: 'ask', reason: `${cls} in ${mode} mode` };
    }
  }

  /**
   * enter_plan_mode and exit_plan_mode, as Gemini CLI 0.61's plan policy has them: each only where it
   * means something (entering from any other mode, leaving plan mode). Entering only takes permissions
   * away, so it runs unasked; leaving asks the user to approve the plan, and a headless run approves it
   * (0.61 does; the mode it returns to is the one the user was in, never more).
   */
  private modeSwitchVerdict(tool: PolicyTool, mode: ApprovalMode): Verdict {
    if (tool.toolName === 'enter_plan_mode') {
      return mode === 'plan'
        ? { decision: 'deny', reason: 'already in plan mode', message: ALREADY_PLANNING }
        : { decision: 'allow', reason: 'entering plan mode only takes permissions away' };
    }
    if (mode !== 'plan') return { decision: 'deny', reason: 'not in plan mode', message: NOT_PLANNING };
    return this.interactive
      ? { decision: 'ask', reason: "the plan needs the user's approval" }
      : { decision: 'allow', reason: 'headless: the plan is approved, as Gemini CLI does' };
  }

  /** A write in plan mode: allowed for a plan file under the plans folder, else refused with 0.61's words. */
  private planWriteVerdict(input: PolicyInput): Verdict {
    const folder = this.plansFolder?.();
    // The server's confirmation names the file it will really write; before the call, the arguments do.
    const target = input.detail ? input.detail.filePath : input.args.file_path;
    if (folder !== undefined && isPlanFile(folder, target))
      return { decision: 'allow', reason: 'plan file in plan mode' };
    return { decision: 'deny', reason: 'plan mode: not a plan file in the plans folder', message: PLAN_WRITE_DENIAL };
  }

  /** Records an "always" outcome. */
  async remember(tool: PolicyTool, answer: UserAnswer, detail?: ConfirmationDetail): Promise<void> {
    if (answer.decision !== 'proceed_always') return;
    if (answer.scope === 'tool') return this.session.allowTool(tool.exposedName);
    if (answer.scope === 'server') return this.session.allowServer(tool.serverAlias);
    const cls = classifyTool(tool);
    if (cls === 'edit') {
      if (this.mode === 'default') this.changeMode('autoEdit');
    } else if (cls === 'memory' && detail?.filePath) {
      this.session.allowMemoryFile(detail.filePath);
    } else if (cls === 'exec' && detail?.command !== undefined) {
      const roots = detail.rootCommands?.length ? detail.rootCommands : await rootCommandsOf(detail.command);
      for (const r of roots) this.session.allowShellPrefix(r);
    } else {
      this.session.allowTool(tool.exposedName);
    }
  }

  private async staticDeny(tool: PolicyTool, command: string | undefined): Promise<string | undefined> {
    const whole = this.wholeDenyReason(tool);
    if (whole) return whole;
    if (command !== undefined && (await anyPartMatches(command, matchRules(this.exclude, tool).prefixes))) {
      return 'command is in tools.exclude';
    }
    if (this.core && command !== undefined) {
      const core = matchRules(this.core, tool);
      if (!core.whole && !(await allPartsMatch(command, core.prefixes))) return 'command is not covered by tools.core';
    }
    return undefined;
  }

  /** Exclusions that hold for every call of the tool, whatever its arguments. */
  private wholeDenyReason(tool: PolicyTool): string | undefined {
    if (this.excludedServers.has(tool.serverAlias)) return `server ${tool.serverAlias} is in mcp.excluded`;
    if (matchRules(this.exclude, tool).whole) return `${tool.exposedName} is in tools.exclude`;
    if (this.core) {
      const core = matchRules(this.core, tool);
      if (!core.whole && core.prefixes.length === 0) return `${tool.exposedName} is not in tools.core`;
    }
    return undefined;
  }

  /** Rules that decide a shell command by what it runs: prefixes in settings or flags, policy file conditions. */
  private commandRulesInForce(tool: PolicyTool, mode: ApprovalMode): boolean {
    return (
      matchRules(this.exclude, tool).prefixes.length > 0 ||
      matchRules(this.allowed, tool).prefixes.length > 0 ||
      (this.core !== undefined && matchRules(this.core, tool).prefixes.length > 0) ||
      this.files.hasCommandRules(tool, mode, this.interactive)
    );
  }

  private wholeAllowed(tool: PolicyTool): boolean {
    return (
      this.allowedServers.has(tool.serverAlias) ||
      this.session.allows(tool.exposedName, tool.serverAlias) ||
      matchRules(this.allowed, tool).whole
    );
  }

  private shellAllowances(tool: PolicyTool): string[] {
    return [...matchRules(this.allowed, tool).prefixes, ...this.session.shellPrefixes()];
  }
}

/**
 * A command rule names a program; a part whose program is known only when it runs (`X=rm; $X v`,
 * `bash -c "$C"`) could be any program, so it counts as matching the strictest rule: the user is asked,
 * and under yolo (nobody to ask) it is denied. Undefined when every program is known.
 */
async function unknownProgramVerdict(command: string, mode: ApprovalMode): Promise<Verdict | undefined> {
  const part = await unknownProgramPart(command);
  if (part === undefined) return undefined;
  const why = `The program of "${part}" is known only when it runs, and command rules are in force: it counts as matching the strictest of them.`;
  return mode === 'yolo'
    ? { decision: 'deny', reason: why, message: `${DENIED_BY_POLICY} ${why}` }
    : { decision: 'ask', reason: why };
}

/** The shell command a call or its confirmation names; the confirmation's is what will run. */
function commandOf(input: PolicyInput): string | undefined {
  if (input.detail) return input.detail.kind === 'exec' ? input.detail.command : undefined;
  return typeof input.args.command === 'string' ? input.args.command : undefined;
}
