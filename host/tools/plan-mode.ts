import { lstatSync, mkdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ConfirmationDetail, UserAnswer } from '../../protocol/confirmation.js';
import { META } from '../../protocol/meta.js';
import { isWithin, realPathOf } from '../../protocol/path-within.js';
import { readConfigFile } from '../config/config-file.js';
import type { ApprovalMode } from '../scheduler/types.js';
import { type HostCallContext, hostToolEntry, type RegisteredTool } from './registered-tool.js';

/**
 * Gemini CLI 0.61's enter_plan_mode and exit_plan_mode: the model switches itself into plan mode (read-only
 * tools, plus writes of plan files under the session's plans folder) and presents its plan for approval to
 * leave it. Host tools, since they change the host's own approval mode; policy decides when each may run
 * (PolicyEngine.modeSwitchVerdict) and which writes plan mode allows. Names, schemas and answers are 0.61's,
 * so recorded sessions replay; one difference on purpose: an approved plan returns to the mode the user
 * was in before planning (0.61 picks default, or yolo in a headless run).
 */

export const ENTER_PLAN_MODE = 'enter_plan_mode';
export const EXIT_PLAN_MODE = 'exit_plan_mode';

/** The approval mode, as the plan tools need it (the PolicyEngine). */
export interface ModeHolder {
  getApprovalMode(): ApprovalMode;
  setApprovalMode(mode: ApprovalMode): void;
  onModeChange(fn: (mode: ApprovalMode) => void): () => void;
}

/** Asks the user during the call (ApprovalBroker.askInCall). */
export type AskInCall = (
  callId: string,
  detail: ConfirmationDetail,
  message: string,
  signal: AbortSignal,
) => Promise<UserAnswer>;

/** The session's `<project temp>/<session id>/plans`, Gemini CLI's folder for plans. */
export function plansFolderOf(projectTempDir: string, sessionId: string): string {
  return join(projectTempDir, sessionId, 'plans');
}

export function enterPlanModeEntry(): RegisteredTool {
  return modeTool(
    ENTER_PLAN_MODE,
    'Enter Plan Mode',
    'Switch to Plan Mode to safely research, design, and plan complex changes using read-only tools.',
    {
      type: 'object',
      properties: {
        reason: { type: 'string', description: 'Short reason explaining why you are entering plan mode.' },
      },
    },
  );
}

export function exitPlanModeEntry(): RegisteredTool {
  const entry = modeTool(
    EXIT_PLAN_MODE,
    'Exit Plan Mode',
    'Finalizes the planning phase and transitions to implementation by presenting the plan for formal user approval. You MUST reach an informal agreement with the user in the chat regarding the proposed strategy BEFORE calling this tool. This tool MUST be used to exit Plan Mode before any source code edits can be performed.',
    {
      type: 'object',
      required: ['plan_filename'],
      properties: {
        plan_filename: {
          type: 'string',
          description: 'The filename of the finalized plan (e.g., "feature-x.md"). Do not provide an absolute path.',
        },
      },
    },
  );
  // It asks the user itself, with the plan's text (askInCall), not the generic dialog before the call.
  return { ...entry, confirmsInCall: true };
}

/** A host tool that changes state: not read-only, so it runs alone and in order within its batch. */
function modeTool(name: string, title: string, description: string, schema: object): RegisteredTool {
  const entry = hostToolEntry(name, title, description, schema);
  return { ...entry, readOnly: false, annotations: { readOnlyHint: false } };
}

/** Gemini CLI 0.61's description of each mode, in the message that leaves plan mode. */
const MODE_DESCRIPTION: Record<ApprovalMode, string> = {
  autoEdit: 'Auto-Edit mode (edits will be applied automatically)',
  default: 'Default mode (edits will require confirmation)',
  plan: 'Plan mode (read-only planning)',
  yolo: 'YOLO mode (all tool calls auto-approved)',
};

/** A plan is read whole into the approval dialog: a bound keeps a runaway file from filling memory. */
const MAX_PLAN_BYTES = 1024 * 1024;

const result = (forModel: string, display: string): CallToolResult => ({
  content: [{ type: 'text', text: forModel }],
  _meta: { [META.display]: display },
});

const failure = (text: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text }],
  _meta: { [META.errorType]: 'invalid_tool_params', [META.display]: 'Error: Invalid plan' },
});

/** The state of plan mode in one session: where plans go, and the mode to return to when one is approved. */
export class PlanMode {
  /** The last mode that was not plan: where an approved plan returns. */
  private before: ApprovalMode;
  private readonly stopWatch: () => void;

  constructor(
    private readonly modes: ModeHolder,
    readonly plansFolder: () => string,
    private readonly projectRoot: string,
    private readonly ask: AskInCall,
    /** Told the plan the user approved (the system prompt points the model at it). */
    private readonly onApproved: (path: string) => void = () => {},
  ) {
    const now = modes.getApprovalMode();
    this.before = now === 'plan' ? 'default' : now;
    if (now === 'plan') this.makeFolder();
    // However plan mode was entered (the model, Shift+Tab, an editor), its plans folder is there to write in.
    this.stopWatch = modes.onModeChange((m) => {
      if (m === 'plan') this.makeFolder();
      else this.before = m;
    });
  }

  /** Created for the model's writes; a failure shows when it writes, as in Gemini CLI. */
  private makeFolder(): void {
    try {
      mkdirSync(this.plansFolder(), { recursive: true, mode: 0o700 });
    } catch {
      // The write that needs it reports why.
    }
  }

  dispose(): void {
    this.stopWatch();
  }

  /** The mode an approved plan returns to. */
  get returnMode(): ApprovalMode {
    return this.before;
  }

  /** enter_plan_mode (policy allowed it: the session is not in plan mode). */
  async enter(args: Record<string, unknown>): Promise<CallToolResult> {
    this.modes.setApprovalMode('plan');
    const reason = typeof args.reason === 'string' && args.reason.trim() ? args.reason : undefined;
    return result('Switching to Plan mode.', reason ? `Switching to Plan mode: ${reason}` : 'Switching to Plan mode');
  }

  /** exit_plan_mode: the plan file is checked, shown for approval (unless policy allowed it), then acted on. */
  async exit(args: Record<string, unknown>, ctx: HostCallContext): Promise<CallToolResult> {
    const name = typeof args.plan_filename === 'string' ? args.plan_filename : '';
    if (!name.trim()) return failure('plan_filename is required.');
    const checked = await this.readPlan(name);
    if ('error' in checked) return failure(checked.error);
    const { path, text } = checked;
    let answer: UserAnswer = { decision: 'proceed_once' };
    if (!ctx.preapproved) {
      const detail: ConfirmationDetail = {
        kind: 'plan',
        title: 'Plan Approval',
        filePath: path,
        prompt: text,
        description: `Approving switches to ${MODE_DESCRIPTION[this.before]}.`,
        ...(ctx.callId ? { callId: ctx.callId } : {}),
      };
      const signal = ctx.signal ?? new AbortController().signal;
      answer = await this.ask(ctx.callId ?? '', detail, `Requesting plan approval for: ${path}`, signal);
    }
    return this.answered(answer, path);
  }

  private answered(answer: UserAnswer, path: string): CallToolResult {
    if (answer.decision === 'proceed_once' || answer.decision === 'proceed_always') {
      const mode = this.before;
      this.modes.setApprovalMode(mode);
      this.onApproved(path);
      return result(
        `Plan approved. Switching to ${MODE_DESCRIPTION[mode]}.\n\nThe approved implementation plan is stored at: ${path}\nRead and follow the plan strictly during implementation.`,
        `Plan approved: ${path}`,
      );
    }
    const feedback = answer.decision === 'modify' ? answer.content : answer.feedback;
    if (feedback === undefined) {
      return result(
        'User cancelled the plan approval dialog. The plan was not approved and you are still in Plan Mode.',
        'Cancelled',
      );
    }
    if (feedback.trim()) {
      return result(
        `Plan rejected. User feedback: ${feedback.trim()}\n\nThe plan is stored at: ${path}\nRevise the plan based on the feedback.`,
        `Feedback: ${feedback.trim()}`,
      );
    }
    return result(
      `Plan rejected. No feedback provided.\n\nThe plan is stored at: ${path}\nAsk the user for specific feedback on how to improve the plan.`,
      'Rejected (no feedback)',
    );
  }

  /**
   * The plan file as Gemini CLI 0.61 finds it (an absolute path, else from the project root, else from the
   * plans folder), which must lie in the plans folder by its real path, exist and not be empty.
   */
  private async readPlan(name: string): Promise<{ path: string; text: string } | { error: string }> {
    const folder = this.plansFolder();
    const trimmed = name.trim();
    // By real paths, and never through a plans folder that is itself a link (it would lead anywhere).
    const inside = (p: string) => {
      try {
        if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) return false;
        return isWithin(realPathOf(folder), realPathOf(p));
      } catch {
        return false;
      }
    };
    const candidates = [
      ...(isAbsolute(trimmed) ? [trimmed] : []),
      resolve(this.projectRoot, trimmed),
      resolve(folder, trimmed),
    ];
    const path = candidates.find(inside);
    if (!path) {
      return {
        error: `Access denied: plan path (${trimmed}) must be within the designated plans directory (${folder}).`,
      };
    }
    // The real path that was checked is the one read.
    // The model wrote the file: read it as any file someone else placed (a regular file only, capped, a
    // FIFO never blocks).
    let text: string | undefined;
    try {
      text = readConfigFile(realPathOf(path), MAX_PLAN_BYTES);
    } catch (err) {
      return { error: `Failed to read plan file: ${(err as Error).message}` };
    }
    if (text === undefined) {
      return {
        error: `Plan file does not exist: ${trimmed}. You must create the plan file before requesting approval.`,
      };
    }
    if (!text.trim())
      return { error: 'Plan file is empty. You must write content to the plan file before requesting approval.' };
    return { path, text };
  }
}
