import type { Part } from '@google/genai';
import type { ConfirmationDetail, UserAnswer } from '../../protocol/confirmation.js';
import type { FileDiffDisplay } from '../../protocol/tool-result.js';

/**
 * The typed tool-call vocabulary shared by the scheduler (host core), the model loop and both
 * consumers (terminal UI, headless CLI). Nothing here depends on a UI library.
 */

/** `plan`: only read-only tools are allowed, and writes of the plan file (the model plans, nothing else changes). */
export type ApprovalMode = 'default' | 'autoEdit' | 'yolo' | 'plan';

export interface ToolCallRequestInfo {
  callId: string;
  /** The exposed name (`server__tool`) the model or the user used. */
  name: string;
  args: Record<string, unknown>;
  /** True for passive `@tool({...})` calls typed by the user: the result is not sent to the model. */
  isClientInitiated: boolean;
  /**
   * A shell command the user typed (`!cmd`): typing it is the consent, so policy's "ask" runs it without a
   * dialog (a denial still holds); its output is for the user only and is not cut for the model.
   */
  typedByUser?: boolean;
  /**
   * The name the model called when an AfterTool hook replaced the call with a tail call (`name` is then the
   * tail's tool): the response answers the model's call under this name.
   */
  originalRequestName?: string;
  /** What ran a client-initiated call, for its card: a custom command's `/name` (its `@{…}`, `!{…}`). */
  origin?: string;
  /** The invoke_agent call whose subagent made this call: its card lists it, so it gets none of its own. */
  parentCallId?: string;
  promptId: string;
}

export type ToolCallStatus =
  | 'validating'
  | 'scheduled'
  | 'awaiting_approval'
  | 'executing'
  | 'success'
  | 'error'
  | 'cancelled';

export type ResultDisplay = string | FileDiffDisplay;

export interface ToolCallResponseInfo {
  callId: string;
  /** The functionResponse part (plus inline data parts for media) to send back to the model. */
  responseParts: Part[];
  /** The text the model reads (its `output`, or its `error`), stored once so nobody digs it out of the parts. */
  responseText: string;
  resultDisplay?: ResultDisplay;
  /** The text the model reads when the call failed. */
  error?: string;
  errorType?: string;
  /** Where the full output was saved when the text was truncated. */
  outputFile?: string;
  /** The result's `_meta` as the server sent it (for a client-initiated call that reads it). */
  meta?: Record<string, unknown>;
}

/**
 * The one tool type: a tool as the registry knows it, enough for a UI card, policy and the scheduler.
 * Every other host view of a tool is a `Pick` of it; the registry adds only its own bookkeeping.
 */
export interface ToolRef {
  exposedName: string;
  serverAlias: string;
  toolName: string;
  title?: string;
  description: string;
  /** The server's input schema, against which arguments are validated before anything runs. */
  inputSchema: Record<string, unknown>;
  /** A server's cap on the size of one result (`_meta`), when it gives one. */
  maxResultSizeChars?: number;
  readOnly: boolean;
  /** The server confirms in-call through elicitation (tool `_meta[META.confirms]`). */
  confirmsInCall: boolean;
  trusted: boolean;
  builtIn: boolean;
  /** Runs inside the OS sandbox: a server the host confines, or our shell started with --sandbox. */
  sandboxed?: boolean;
}

/** What the user is asked: a host-side pre-call ask, or an elicitation raised by the server mid-call. */
export type ConfirmationRequest =
  | {
      source: 'pre-call';
      callId: string;
      tool: ToolRef;
      args: Record<string, unknown>;
      title: string;
      /** Why a BeforeTool hook asked (its systemMessage or reason), shown above the question. */
      hookMessage?: string;
    }
  | {
      source: 'elicitation';
      callId: string;
      tool: ToolRef;
      /** The call's arguments, for a front-end that titles the question after the call. */
      args: Record<string, unknown>;
      detail: ConfirmationDetail;
      message: string;
    };

/** The user's answer: one type for the dialog, policy and servers (see protocol/confirmation.ts). */
export type { UserAnswer } from '../../protocol/confirmation.js';

/** The tool as policy sees it. */
export type PolicyTool = Pick<
  ToolRef,
  'exposedName' | 'serverAlias' | 'toolName' | 'builtIn' | 'readOnly' | 'trusted' | 'sandboxed'
>;

/** What policy decides on: the call's arguments, and for a server's mid-call question its typed detail. */
export interface PolicyInput {
  args: Record<string, unknown>;
  detail?: ConfirmationDetail;
  /** What the call's BeforeTool hooks said: they block, ask or (Claude Code's explicit allow) allow. */
  hook?: { decision: 'deny' | 'ask' | 'allow'; reason: string; message?: string };
}

/** What a call's BeforeTool hooks decided (host/hooks), merged over every matching hook. */
export interface BeforeToolHookResult {
  blocked?: string;
  ask?: boolean;
  /** What the hooks told the person with their ask. */
  askReason?: string;
  allowed?: boolean;
  /** `continue: false`: the whole agent loop stops. */
  stopped?: string;
  /** The complete input as the hooks rewrote it (any spelling the tool accepts), and the names they set. */
  updatedInput?: Record<string, unknown>;
  modifiedKeys?: string[];
}

/** What a call's AfterTool hooks decided. */
export interface AfterToolHookResult {
  /** The result is hidden from the model; this reason replaces it. */
  blocked?: string;
  stopped?: string;
  /** Appended to the result for the model. */
  context?: string;
  /** `tailToolCallRequest`: this call is made next, and its response replaces this one's. */
  tail?: { name: string; args: Record<string, unknown> };
}

/**
 * The tool hooks the scheduler runs (host/hooks implements them); declared here so the scheduler does not
 * import hooks. BeforeTool runs before policy and feeds its one decision; AfterTool after the server answered.
 */
export interface ToolHooks {
  /**
   * `args` as the tool takes them; `asSent` as the model (or recording) spelled them, which hooks see;
   * `original` the tool the model called, when this call is a hook's tail call in its place.
   */
  beforeTool(
    tool: ToolRef,
    args: Record<string, unknown>,
    signal: AbortSignal,
    asSent?: Record<string, unknown>,
    original?: ToolRef,
  ): Promise<BeforeToolHookResult>;
  afterTool(
    tool: ToolRef,
    args: Record<string, unknown>,
    response: { llmContent: string; returnDisplay?: ResultDisplay; error?: string; errorType?: string },
    signal: AbortSignal,
    asSent?: Record<string, unknown>,
    original?: ToolRef,
  ): Promise<AfterToolHookResult>;
  /**
   * A call is about to wait for the user's approval (the Notification event): awaited before the question is
   * shown, as Gemini CLI does, so a notifying hook has run even if the process ends at the answer; observe only.
   */
  awaitingApproval?(request: ConfirmationRequest): Promise<void>;
}

/** The one verdict of policy, before a call and for a server's mid-call question alike. */
export type Verdict =
  | { decision: 'allow'; reason: string }
  | { decision: 'ask'; reason: string }
  | { decision: 'deny'; reason: string; message: string };

/**
 * The policy the scheduler consults (host/policy's PolicyEngine); declared here so the scheduler
 * does not import policy and policy only imports these types.
 */
export interface Policy {
  readonly interactive: boolean;
  decide(tool: PolicyTool, input: PolicyInput): Promise<Verdict>;
  /** Records an answer that reaches beyond this call ("always"). */
  remember(tool: PolicyTool, answer: UserAnswer, detail?: ConfirmationDetail): Promise<void>;
}

/** Injected by the consumer: the terminal UI shows a dialog; headless declines unless allowed. */
export interface Confirmer {
  confirm(request: ConfirmationRequest, signal: AbortSignal): Promise<UserAnswer>;
  /**
   * Set by an editor (ACP): a user's rejection answers the model ("Tool … was canceled by the user.") and
   * the turn goes on, as Gemini CLI's editor mode does; only a cancel of the turn stops it. Unset (the chat,
   * headless): a rejection ends the turn, as Gemini CLI's chat does.
   */
  readonly rejectionContinuesTurn?: boolean;
}

/**
 * How a call was decided (the json stats' `decisions`): let through by policy, a mode or a rule without
 * asking; allowed by the user (once or always); allowed with the user's edited content; or refused, by the
 * user or by policy.
 */
export type ToolCallOutcome = 'auto_accept' | 'accept' | 'modify' | 'reject';

/** What every state of a call carries. */
interface CallBase {
  request: ToolCallRequestInfo;
  startTime: number;
  /** Set once the call was decided; absent when it never came up for a decision (unknown tool, bad args). */
  outcome?: ToolCallOutcome;
  /** Time spent waiting for the user's answer (dialogs before and during the call): not tool time. */
  waitedMs?: number;
}

/** What a running call may carry: streamed progress text (newest last) and the latest progress notification. */
interface Running {
  liveOutput?: string;
  progress?: { progress: number; total?: number };
}

/** Fields a state does not have, spelled out so that reading them is allowed and always undefined. */
type Without<K extends PropertyKey> = { [P in K]?: undefined };

type Ended = { endTime: number; response: ToolCallResponseInfo };

/**
 * A tool call, one state at a time: each state carries only its own fields. `tool` exists once the
 * name was found; `confirmation` only while the user is asked; `response` (with the model-facing
 * text) and `endTime` only once the call ended.
 */
export type ToolCall =
  | (CallBase & { status: 'validating'; tool?: ToolRef } & Without<
        'confirmation' | 'response' | 'endTime' | keyof Running
      >)
  | (CallBase & { status: 'scheduled'; tool: ToolRef } & Without<
        'confirmation' | 'response' | 'endTime' | keyof Running
      >)
  | (CallBase &
      Running & { status: 'awaiting_approval'; tool: ToolRef; confirmation: ConfirmationRequest } & Without<
        'response' | 'endTime'
      >)
  | (CallBase & Running & { status: 'executing'; tool: ToolRef } & Without<'confirmation' | 'response' | 'endTime'>)
  // Ended calls may lack the tool: a call can fail before its name was found, and a call shown from a
  // stored history names no tool.
  | (CallBase & Running & Ended & { status: 'success'; tool?: ToolRef } & Without<'confirmation'>)
  | (CallBase & Running & Ended & { status: 'error'; tool?: ToolRef } & Without<'confirmation'>)
  | (CallBase & Running & Ended & { status: 'cancelled'; tool?: ToolRef } & Without<'confirmation'>);

/** A call's state by its status. */
export type ToolCallIn<S extends ToolCallStatus> = Extract<ToolCall, { status: S }>;

export type SchedulerEvent =
  | { type: 'tool_call_update'; call: ToolCall }
  | { type: 'tool_output'; callId: string; chunk: string }
  /** Raw bytes a command running in a pseudo-terminal wrote, and where to send the user's keystrokes. */
  | { type: 'tool_terminal'; callId: string; serverAlias: string; pid: number; data: string }
  | { type: 'all_complete'; calls: ToolCall[] };
