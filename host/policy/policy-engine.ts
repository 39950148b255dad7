import { FatalConfigError } from '../errors.js';
import type { ConfirmationDetail } from '../../protocol/confirmation.js';
import type { ApprovalMode, ConfirmationOutcome, ToolRef } from '../scheduler/types.js';
import { matchRules, parseRules, type ToolRule } from './rules.js';
import { allPartsMatch, anyPartMatches, rootCommandsOf, shellDecision } from './shell-rules.js';
import { classifyTool, type ToolClass } from './tool-class.js';
import { SessionRules } from './session-rules.js';

/** The settings keys policy reads; A's `Settings` is structurally compatible. */
export interface PolicySettings {
  tools?: { allowed?: string[]; exclude?: string[]; core?: string[]; confirmationRequired?: string[] };
  mcp?: { allowed?: string[]; excluded?: string[] };
  security?: { disableYoloMode?: boolean };
}

export type PolicyDecision =
  | { decision: 'allow'; reason: string }
  | { decision: 'ask'; reason: string }
  | { decision: 'deny'; reason: string; message: string };

export interface PolicyEngineOptions {
  settings?: PolicySettings;
  approvalMode?: ApprovalMode;
  /** Headless runs turn every ask into a deny unless an allow rule applies. */
  interactive: boolean;
  /** `--allowed-tools`. */
  allowedTools?: string[];
  /** `--allowed-mcp-server-names`: these servers' tools are allowed. */
  allowedMcpServerNames?: string[];
  /** The folder is not trusted: the approval mode stays `default`. */
  untrustedFolder?: boolean;
}

export const DENIED_BY_POLICY = 'Tool execution denied by policy.';
export const headlessDenial = (name: string) =>
  `Tool execution for "${name}" requires user confirmation, which is not supported in non-interactive mode.`;

export type PolicyTool = Pick<ToolRef, 'exposedName' | 'serverAlias' | 'toolName' | 'builtIn' | 'readOnly' | 'trusted'>;

/**
 * Decides allow / ask / deny for a call before it runs, and for an in-call confirmation raised by a
 * server; keeps the session's "always" rules. Nothing here does I/O besides parsing shell commands.
 */
export class PolicyEngine {
  readonly interactive: boolean;
  readonly session = new SessionRules();
  private mode: ApprovalMode;
  private readonly allowed: ToolRule[];
  private readonly exclude: ToolRule[];
  private readonly core: ToolRule[] | undefined;
  private readonly confirmationRequired: ToolRule[];
  private readonly allowedServers: Set<string>;
  private readonly excludedServers: Set<string>;
  private readonly disableYolo: boolean;
  private readonly untrustedFolder: boolean;

  constructor(opts: PolicyEngineOptions) {
    const s = opts.settings ?? {};
    this.interactive = opts.interactive;
    this.disableYolo = s.security?.disableYoloMode === true;
    this.untrustedFolder = opts.untrustedFolder === true;
    this.allowed = [...parseRules(s.tools?.allowed), ...parseRules(opts.allowedTools)];
    this.exclude = parseRules(s.tools?.exclude);
    // Present, even empty, `tools.core` is an allowlist for every tool (see effectiveCore).
    this.core = s.tools?.core !== undefined ? parseRules(s.tools.core) : undefined;
    this.confirmationRequired = parseRules(s.tools?.confirmationRequired);
    this.allowedServers = new Set([...(s.mcp?.allowed ?? []), ...(opts.allowedMcpServerNames ?? [])]);
    this.excludedServers = new Set(s.mcp?.excluded ?? []);
    this.mode = 'default';
    this.setApprovalMode(opts.approvalMode ?? 'default');
  }

  getApprovalMode(): ApprovalMode {
    return this.mode;
  }

  setApprovalMode(mode: ApprovalMode): void {
    if (mode === 'yolo' && this.disableYolo) throw new FatalConfigError('YOLO mode is disabled by security.disableYoloMode.');
    if (mode !== 'default' && this.untrustedFolder) {
      throw new Error('This folder is not trusted: the approval mode stays default (run "gemini-mcp trust" to trust it).');
    }
    this.mode = mode;
  }

  /** The decision before the call; headless turns an ask into a deny. */
  async check(tool: PolicyTool, args: Record<string, unknown>): Promise<PolicyDecision> {
    const cls = classifyTool(tool);
    const command = cls === 'exec' && typeof args.command === 'string' ? args.command : undefined;
    const denied = await this.staticDeny(tool, command);
    if (denied) return { decision: 'deny', reason: denied, message: DENIED_BY_POLICY };
    const verdict = await this.allowOrAsk(tool, cls, command);
    if (verdict.decision === 'ask' && !this.interactive) {
      return { decision: 'deny', reason: `headless: ${verdict.reason}`, message: headlessDenial(tool.exposedName) };
    }
    return verdict;
  }

  /**
   * True when every call of the tool is denied whatever its arguments: excluded, or, in a
   * headless run, a tool that always needs confirmation that no mode or allow rule lets through. A tool named
   * by an allow rule with arguments (`run_shell_command(git)`) is not, since some of its calls may pass.
   * Reads the current approval mode and session rules, so ask again after either changes.
   */
  isStaticallyDenied(tool: PolicyTool): boolean {
    if (this.wholeDenyReason(tool) !== undefined) return true;
    return !this.interactive && this.alwaysAsks(tool);
  }

  /** Whether a confirmation the server raised mid-call is answered without asking the user. */
  async checkConfirmation(tool: PolicyTool, detail: ConfirmationDetail): Promise<'allow' | 'ask'> {
    const cls = classifyTool(tool);
    if (this.mode === 'yolo' || tool.trusted) return 'allow';
    if (this.wholeAllowed(tool)) return 'allow';
    if (detail.kind === 'edit') {
      if (cls === 'memory') return detail.filePath && this.session.hasMemoryFile(detail.filePath) ? 'allow' : 'ask';
      return cls === 'edit' && this.mode !== 'default' ? 'allow' : 'ask';
    }
    if (detail.kind === 'exec' && cls === 'exec' && detail.command !== undefined) {
      return shellDecision(detail.command, this.shellAllowances(tool), this.mode);
    }
    if (detail.kind === 'info' && cls === 'info') return this.mode === 'autoEdit' ? 'allow' : 'ask';
    return 'ask';
  }

  /** Records an "always" outcome. */
  async remember(tool: PolicyTool, outcome: ConfirmationOutcome, detail?: ConfirmationDetail): Promise<void> {
    if (outcome.outcome === 'proceed_always_tool') return this.session.allowTool(tool.exposedName);
    if (outcome.outcome === 'proceed_always_server') return this.session.allowServer(tool.serverAlias);
    if (outcome.outcome !== 'proceed_always') return;
    const cls = classifyTool(tool);
    if (cls === 'edit') {
      if (this.mode === 'default') this.mode = 'autoEdit';
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

  /** `allowOrAsk` without arguments: true when no call of the tool can be allowed without asking. */
  private alwaysAsks(tool: PolicyTool): boolean {
    if (this.mode === 'yolo') return false;
    if (matchRules(this.confirmationRequired, tool).whole) return true;
    if (tool.trusted || this.wholeAllowed(tool)) return false;
    // Any allow rule naming the tool keeps it, arguments or not: some calls may be allowed.
    if (matchRules(this.allowed, tool).prefixes.length > 0) return false;
    const cls = classifyTool(tool);
    if (cls === 'read-only') return false;
    if (cls === 'edit' || cls === 'info') return this.mode !== 'autoEdit';
    if (cls === 'exec') return this.session.shellPrefixes().length === 0;
    return true;
  }

  private async allowOrAsk(tool: PolicyTool, cls: ToolClass, command: string | undefined): Promise<PolicyDecision> {
    if (this.mode === 'yolo') return { decision: 'allow', reason: 'yolo' };
    if (matchRules(this.confirmationRequired, tool).whole) return { decision: 'ask', reason: 'tools.confirmationRequired' };
    if (tool.trusted) return { decision: 'allow', reason: 'trusted server' };
    if (cls === 'read-only') return { decision: 'allow', reason: 'read-only' };
    if (this.wholeAllowed(tool)) return { decision: 'allow', reason: 'allow rule' };
    switch (cls) {
      case 'edit':
      case 'info':
        return this.mode === 'autoEdit'
          ? { decision: 'allow', reason: 'autoEdit' }
          : { decision: 'ask', reason: `${cls} in default mode` };
      case 'exec': {
        if (command === undefined) return { decision: 'ask', reason: 'no command' };
        const d = await shellDecision(command, this.shellAllowances(tool), this.mode);
        return { decision: d, reason: d === 'allow' ? 'shell prefix rule' : 'command not allow-listed' };
      }
      default:
        return { decision: 'ask', reason: cls === 'memory' ? 'memory save' : 'third-party tool' };
    }
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
