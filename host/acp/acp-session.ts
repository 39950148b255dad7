import * as acp from '@agentclientprotocol/sdk';
import type { Part } from '@google/genai';
import type { ServerGeminiStreamEvent } from '../core/events.js';
import type { Session } from '../core/session.js';
import type { ApprovalMode, ToolCall } from '../scheduler/types.js';
import { APPROVAL_MODES, isApprovalMode } from '../policy/approval-mode.js';
import { callStatus, resultContent, toolKind, toolLocations, toolTitle } from './tool-calls.js';
import { promptInput } from './prompt-blocks.js';
import { builtInCommand, rescanCustomCommands } from './commands.js';
import { isAuthStatus } from '../core/api-error-text.js';

export type SendUpdate = (update: acp.SessionUpdate) => Promise<void>;

/** How the editor names each approval mode; a mode added to the host without a name here fails to build. */
const MODE_NAMES: Record<ApprovalMode, { name: string; description: string }> = {
  default: { name: 'Default', description: 'Ask before edits, commands and untrusted tools' },
  autoEdit: { name: 'Auto edit', description: 'Edits run without asking; commands still ask' },
  yolo: { name: 'YOLO', description: 'Every tool call runs without asking' },
  plan: { name: 'Plan', description: 'Read-only tools and the plan file: the model plans, nothing else changes' },
};

export const MODES: acp.SessionMode[] = APPROVAL_MODES.map((id) => ({ id, ...MODE_NAMES[id] }));

const REFUSAL = new Set(['SAFETY', 'RECITATION', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'IMAGE_SAFETY']);
const LIVE_OUTPUT_CHARS = 16_000;

/** How a turn ended, gathered from its stream events. */
class TurnOutcome {
  stop: acp.StopReason = 'end_turn';
  failure?: acp.RequestError;

  note(ev: ServerGeminiStreamEvent): void {
    switch (ev.type) {
      case 'user_cancelled':
        this.stop = 'cancelled';
        break;
      case 'max_session_turns':
        this.stop = 'max_turn_requests';
        break;
      case 'finished':
        if (ev.value.reason === 'MAX_TOKENS') this.stop = 'max_tokens';
        else if (ev.value.reason && REFUSAL.has(ev.value.reason)) this.stop = 'refusal';
        break;
      case 'invalid_stream':
        if (/BLOCKED$/.test(ev.value.type)) this.stop = 'refusal';
        else if (ev.value.type === 'MAX_TOKENS_EXCEEDED') this.stop = 'max_tokens';
        else this.failure = acp.RequestError.internalError(undefined, `Invalid model response: ${ev.value.message}`);
        break;
      case 'error':
        this.failure = isAuthStatus(ev.value.error.status)
          ? acp.RequestError.authRequired(undefined, ev.value.error.message)
          : acp.RequestError.internalError(undefined, ev.value.error.message);
        break;
      default:
        break;
    }
  }
}

/**
 * One ACP session over one host session (runtime, client, recorder): a prompt runs the same loop the
 * chat and headless run, and its typed events become `session/update` notifications.
 */
export class AcpSession {
  private turn?: AbortController;
  private readonly live = new Map<string, string>();
  private readonly lastStatus = new Map<string, string>();
  private promptSeq = 0;
  private readonly commandWatchers: (() => void)[] = [];
  private readonly stopModeWatch: () => void;

  constructor(
    readonly id: string,
    readonly cwd: string,
    readonly session: Session,
    private readonly send: SendUpdate,
    private readonly log: (m: string) => void,
  ) {
    // The editor shows the mode: a change policy makes (an "allow always" on an edit turns default into
    // autoEdit) reaches it as a change the editor asked for does.
    this.stopModeWatch = session.runtime.onApprovalModeChange((mode) => {
      this.send({ sessionUpdate: 'current_mode_update', currentModeId: mode }).catch((e: unknown) =>
        this.log(`Could not tell the editor the approval mode: ${(e as Error)?.message ?? e}`),
      );
    });
  }

  /** Called when the custom commands changed on disk (seen when a prompt starts). */
  onCommandsChanged(fn: () => void): void {
    this.commandWatchers.push(fn);
  }

  get busy(): boolean {
    return this.turn !== undefined;
  }

  /** `session/cancel`: the turn's signal, as Ctrl-C in the chat — the model request and every call in flight stop. */
  cancel(): void {
    this.turn?.abort(new Error('Cancelled by the editor (session/cancel).'));
  }

  setMode(mode: string): void {
    if (!isApprovalMode(mode)) {
      throw acp.RequestError.invalidParams(
        { modeId: mode },
        `Unknown mode "${mode}": use one of ${MODES.map((m) => m.id).join(', ')}.`,
      );
    }
    try {
      this.session.runtime.setApprovalMode(mode);
    } catch (e) {
      throw acp.RequestError.invalidParams({ modeId: mode }, (e as Error).message);
    }
  }

  modeState(): acp.SessionModeState {
    return { currentModeId: this.session.runtime.getApprovalMode(), availableModes: MODES };
  }

  async prompt(blocks: acp.ContentBlock[]): Promise<acp.StopReason> {
    if (this.turn) throw acp.RequestError.invalidRequest(undefined, 'A prompt is already running in this session.');
    const controller = new AbortController();
    this.turn = controller;
    try {
      return await this.runTurn(blocks, controller.signal);
    } finally {
      this.turn = undefined;
      this.live.clear();
      this.lastStatus.clear();
    }
  }

  private async say(text: string): Promise<void> {
    await this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }

  /**
   * The prompt as the model gets it, prepared as headless prepares it (a custom command, an MCP prompt
   * command, the text with its `@` references); the calls it ran are shown as tool calls. Warnings are
   * said to the editor before the answer; an error (or a prompt that was only calls) is said instead.
   */
  private async prepare(blocks: acp.ContentBlock[], signal: AbortSignal, promptId: string): Promise<Part[] | string> {
    const { runtime } = this.session;
    const input = promptInput(blocks);
    await runtime.manager.whenReady();
    const { preparePrompt } = await import('../core/prepare-prompt.js');
    const warnings: string[] = [];
    let ran = false;
    const prepared = await preparePrompt(input.text, {
      runtime,
      signal,
      promptId,
      warn: (m) => warnings.push(m),
      onCall: (call) => {
        ran = true;
        return this.callEnded(call, true);
      },
    });
    const notes = warnings.length ? `${warnings.join('\n')}\n\n` : '';
    if (prepared.kind === 'error') return `${notes}${prepared.message}`;
    if (prepared.kind === 'show') return `${notes}${prepared.text}`;
    // The calls' output is on their tool-call cards; `display` adds only what no card shows (bad arguments).
    const shown = ran ? '' : prepared.display;
    if (prepared.parts.length === 0 && input.extra.length === 0) return `${notes}${shown}`;
    if (notes || shown) await this.say(`${notes}${shown ? `${shown}\n\n` : ''}`);
    if (prepared.typed) this.session.recorder?.noteTyped(prepared.typed);
    return [...prepared.parts, ...input.extra];
  }

  private async runTurn(blocks: acp.ContentBlock[], signal: AbortSignal): Promise<acp.StopReason> {
    const promptId = `${this.id}########${this.promptSeq++}`;
    // A command written since the last prompt is usable now, and the editor's list is updated.
    if (rescanCustomCommands(this.session, this.cwd)) {
      for (const problem of this.session.runtime.commands.errors) this.log(problem);
      for (const fn of this.commandWatchers) fn();
    }
    const builtIn = builtInCommand(promptInput(blocks).text);
    if (builtIn) {
      await this.say(await builtIn.run(this.session, signal));
      return signal.aborted ? 'cancelled' : 'end_turn';
    }
    const parts = await this.prepare(blocks, signal, promptId);
    if (typeof parts === 'string') {
      if (parts) await this.say(parts);
      return signal.aborted ? 'cancelled' : 'end_turn';
    }
    if (signal.aborted) return 'cancelled';
    const outcome = new TurnOutcome();
    for await (const ev of this.session.client.sendMessageStream(parts, signal, promptId)) {
      outcome.note(ev);
      await this.forward(ev);
    }
    if (signal.aborted) return 'cancelled';
    if (outcome.failure) throw outcome.failure;
    return outcome.stop;
  }

  private async forward(ev: ServerGeminiStreamEvent): Promise<void> {
    switch (ev.type) {
      case 'content':
        return this.say(ev.value);
      case 'thought': {
        const { subject, description } = ev.value;
        const text = subject ? `**${subject}**\n${description}` : description;
        return this.send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text } });
      }
      case 'tool_call_request': {
        const { callId, name, args } = ev.value;
        const tool = this.session.runtime.registry.get(name);
        this.lastStatus.set(callId, 'pending');
        return this.send({
          sessionUpdate: 'tool_call',
          toolCallId: callId,
          title: toolTitle(name, args, this.cwd, tool),
          kind: toolKind(tool, name),
          status: 'pending',
          rawInput: args,
          locations: toolLocations(args, this.cwd),
        });
      }
      case 'tool_call_update': {
        const status = callStatus(ev.value);
        const id = ev.value.request.callId;
        if (this.lastStatus.get(id) === status) return;
        this.lastStatus.set(id, status);
        return this.send({ sessionUpdate: 'tool_call_update', toolCallId: id, status });
      }
      case 'tool_output': {
        const text = ((this.live.get(ev.value.callId) ?? '') + ev.value.chunk).slice(-LIVE_OUTPUT_CHARS);
        this.live.set(ev.value.callId, text);
        return this.send({
          sessionUpdate: 'tool_call_update',
          toolCallId: ev.value.callId,
          status: 'in_progress',
          content: [{ type: 'content', content: { type: 'text', text } }],
        });
      }
      case 'tool_call_response':
        return this.callEnded(ev.value, false);
      case 'loop_detected':
        return this.say(`\n\n${ev.value.message}`);
      case 'max_session_turns':
        return this.say(`\n\nStopped: reached the limit of ${ev.value.limit} model turns.`);
      case 'model_fallback':
        this.log(ev.value.message);
        return;
      case 'retry':
        this.log(`Model request failed (${ev.value.reason}); retrying (attempt ${ev.value.attempt + 1}).`);
        return;
      default:
        return;
    }
  }

  /** An ended call: its final status and what it produced; a call the user typed is announced first. */
  private async callEnded(call: ToolCall, announce: boolean): Promise<void> {
    const { callId, name, args } = call.request;
    if (announce) {
      await this.send({
        sessionUpdate: 'tool_call',
        toolCallId: callId,
        title: toolTitle(name, args, this.cwd, call.tool),
        kind: toolKind(call.tool, name),
        status: 'in_progress',
        rawInput: args,
        locations: toolLocations(args, this.cwd),
      });
    }
    await this.send({
      sessionUpdate: 'tool_call_update',
      toolCallId: callId,
      status: callStatus(call),
      content: resultContent(call),
      rawOutput: call.response
        ? { text: call.response.responseText, ...(call.status === 'cancelled' ? { cancelled: true } : {}) }
        : undefined,
    });
  }

  async close(): Promise<void> {
    this.stopModeWatch();
    this.cancel();
    await this.session.close();
  }
}
