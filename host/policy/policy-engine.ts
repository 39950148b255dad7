import type { ConfirmationDetail } from '../../servers/common/confirmation.js';
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
  /** Headless runs turn every ask into a deny unless an allow rule applies (reference 4.4). */
  interactive: boolean;
  /** `--allowed-tools`. */
  allowedTools?: string[];
  /** `--allowed-mcp-server-names`: these servers' tools are allowed. */
  allowedMcpServerNames?: string[];
}

export const DENIED_BY_POLICY = 'Tool execution denied by policy.';
export const headlessDenial = (name: string) =>
  `Tool execution for "${name}" requires user confirmation, which is not supported in non-interactive mode.`;

type PolicyTool = Pick<ToolRef, 'exposedName' | 'serverAlias' | 'toolName' | 'builtIn' | 'readOnly' | 'trusted'>;

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

  constructor(opts: PolicyEngineOptions) {
    const s = opts.settings ?? {};
    this.interactive = opts.interactive;
    this.disableYolo = s.security?.disableYoloMode === true;
    this.allowed = [...parseRules(s.tools?.allowed), ...parseRules(opts.allowedTools)];
    this.exclude = parseRules(s.tools?.exclude);
    this.core = s.tools?.core && s.tools.core.length > 0 ? parseRules(s.tools.core) : undefined;
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
    if (mode === 'yolo' && this.disableYolo) throw new Error('YOLO mode is disabled by security.disableYoloMode.');
    this.mode = mode;
  }

  classify(tool: PolicyTool): ToolClass {
    return classifyTool(tool);
  }

  /** The decision before the call (reference 4.2 table, 4.4 headless). */
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

  /** Records an "always" outcome (reference 4.3; contract 1.10). */
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
    if (this.excludedServers.has(tool.serverAlias)) return `server ${tool.serverAlias} is in mcp.excluded`;
    const ex = matchRules(this.exclude, tool);
    if (ex.whole) return `${tool.exposedName} is in tools.exclude`;
    if (command !== undefined && (await anyPartMatches(command, ex.prefixes))) return 'command is in tools.exclude';
    if (this.core) {
      const core = matchRules(this.core, tool);
      if (!core.whole && core.prefixes.length === 0) return `${tool.exposedName} is not in tools.core`;
      if (!core.whole && command !== undefined && !(await allPartsMatch(command, core.prefixes))) {
        return 'command is not covered by tools.core';
      }
    }
    return undefined;
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
