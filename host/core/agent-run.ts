import type { FunctionDeclaration, Part } from '@google/genai';
import type { AgentDefinition } from '../agents/agent-definition.js';
import type { SchedulerEvent, ToolCall, ToolCallRequestInfo } from '../scheduler/types.js';
import {
  COMPLETE_TASK,
  completeTaskDeclaration,
  submittedOutput,
  type TerminateReason,
} from '../tools/invoke-agent.js';
import type { RegisteredTool } from '../tools/registry.js';
import { agentSystemPrompt, agentTools, fillTemplate, finalWarning, GRACE_PERIOD_MS } from './agent-setup.js';
import { defaultGenerationConfig } from './client.js';
import type { ContentGenerator } from './content-generator.js';
import { DEFAULT_RETRY, GeminiChat, type RetryConfig } from './gemini-chat.js';
import type { LoopRuntime } from './loop-runtime.js';
import { modelHooks } from './model-hooks.js';
import { Turn } from './turn.js';
import { Deadline } from './deadline.js';
import type { UsageEventValue } from './events.js';

/**
 * One subagent run, Gemini CLI 0.61's local agent loop: its own chat (the agent's system prompt and model)
 * offered only the agent's tools plus `complete_task`; each turn's calls go through the session's one
 * scheduler (validation, hooks, policy, confirmation) as a nested batch; a call to any other tool is refused
 * inside the loop. It ends when the agent calls `complete_task`, or at its turn or time limit, after one
 * last turn in which the agent is told to call `complete_task` at once.
 */
export interface AgentRunContext {
  runtime: LoopRuntime;
  generator: ContentGenerator;
  /** The model the session uses now (an agent with `model: inherit` runs on it). */
  sessionModel: string;
  retry?: RetryConfig;
  signal: AbortSignal;
  /** The invoke_agent call this run answers: its sub-calls name it as their parent. */
  parentCallId: string;
  /** Each finished sub-call, one line, as it happens (the invoke_agent card's live output). */
  onStep?: (line: string) => void;
  /** Each model request's usage, for the session's counts (/stats, the footer's tokens, headless stats). */
  onUsage?: (value: UsageEventValue) => void;
}

export interface AgentRunResult {
  reason: TerminateReason;
  result: string;
  turns: number;
  /** One line per sub-call. */
  steps: string[];
}

interface TurnOutcome {
  stop?: TerminateReason;
  result?: string;
  next?: Part[];
}

export class AgentRun {
  private readonly chat: GeminiChat;
  private readonly tools: RegisteredTool[];
  private readonly declarations: FunctionDeclaration[];
  private readonly ids = { next: 0 };
  readonly steps: string[] = [];

  constructor(
    private readonly def: AgentDefinition,
    private readonly ctx: AgentRunContext,
  ) {
    const { runtime } = ctx;
    this.tools = agentTools(def, runtime.registry.list());
    // As in the main loop, a tool policy denies outright is not declared; called anyway, it gets policy's text.
    const offered = this.tools.filter((t) => !runtime.policy?.isStaticallyDenied(t));
    this.declarations = [...offered.map((t) => t.declaration), completeTaskDeclaration(def)];
    const model = def.model === 'inherit' ? ctx.sessionModel : def.model;
    const system = agentSystemPrompt(def, runtime.roots);
    const generationConfig = { ...defaultGenerationConfig(model), temperature: def.temperature ?? 1 };
    this.chat = new GeminiChat(
      ctx.generator,
      model,
      () => ({ systemInstruction: system, tools: this.declarations, generationConfig }),
      ctx.retry ?? DEFAULT_RETRY,
    );
    const { hooks, registry } = runtime;
    if (hooks && (hooks.has('BeforeModel') || hooks.has('AfterModel') || hooks.has('BeforeToolSelection')))
      this.chat.modelHooks = modelHooks(hooks, (name) => registry.get(name)?.exposedName);
  }

  async run(prompt: string): Promise<AgentRunResult> {
    const { def } = this;
    const limit = new Deadline(def.timeoutMinutes * 60_000);
    const signal = AbortSignal.any([this.ctx.signal, limit.signal]);
    const { scheduler } = this.ctx.runtime;
    const onEvent = (e: SchedulerEvent): void => {
      if (e.type !== 'tool_call_update' || e.call.request.parentCallId !== this.ctx.parentCallId) return;
      limit.setWaiting(e.call.request.callId, e.call.status === 'awaiting_approval');
    };
    scheduler.on('event', onEvent);
    let turns = 0;
    const first = fillTemplate(def.query, { [def.inputName]: prompt }) || 'Get Started!';
    let outcome: TurnOutcome = { next: [{ text: first }] };
    try {
      while (!outcome.stop) {
        // A stop keeps the answers not yet sent: the last turn sends them, so every call stays answered.
        if (turns >= def.maxTurns) outcome = { stop: 'MAX_TURNS', next: outcome.next };
        else if (signal.aborted) outcome = { stop: limit.signal.aborted ? 'TIMEOUT' : 'ABORTED', next: outcome.next };
        else outcome = await this.turn(outcome.next!, signal, turns++);
      }
    } finally {
      limit.dispose();
      scheduler.off('event', onEvent);
    }
    let reason = outcome.stop;
    let result = outcome.result;
    if (reason === 'MAX_TURNS' || reason === 'TIMEOUT' || reason === 'ERROR_NO_COMPLETE_TASK_CALL') {
      const unsent = (outcome.next ?? []).filter((p) => p.functionResponse);
      const recovered = await this.recover(reason, turns, unsent);
      if (recovered !== undefined) [reason, result] = ['GOAL', recovered];
      else result = this.limitText(reason);
    }
    const fallback = reason === 'GOAL' ? 'Task completed.' : 'Agent execution was terminated before completion.';
    return { reason, result: result || fallback, turns, steps: this.steps };
  }

  private limitText(reason: TerminateReason): string {
    if (reason === 'TIMEOUT') return `Agent timed out after ${this.def.timeoutMinutes} minutes.`;
    if (reason === 'MAX_TURNS') return `Agent reached max turns limit (${this.def.maxTurns}).`;
    return `Agent stopped calling tools but did not call '${COMPLETE_TASK}'.`;
  }

  /** The last chance after a limit: one turn, bounded by a grace period, told to call complete_task now. */
  private async recover(reason: TerminateReason, turns: number, unsent: Part[]): Promise<string | undefined> {
    const grace = AbortSignal.any([this.ctx.signal, AbortSignal.timeout(GRACE_PERIOD_MS)]);
    try {
      const last = await this.turn([...unsent, { text: finalWarning(reason) }], grace, turns);
      return last.stop === 'GOAL' ? (last.result ?? 'Task completed during grace period.') : undefined;
    } catch {
      return undefined;
    }
  }

  /** One model request and its calls. Throws when the model cannot be reached. */
  private async turn(parts: Part[], signal: AbortSignal, n: number): Promise<TurnOutcome> {
    const turn = new Turn(this.chat, `${this.def.name}#${n}`, this.ids);
    for await (const ev of turn.run(parts, signal)) {
      if (ev.type === 'user_cancelled')
        return { stop: signal.aborted && !this.ctx.signal.aborted ? 'TIMEOUT' : 'ABORTED' };
      if (ev.type === 'usage') this.ctx.onUsage?.({ ...ev.value, subagent: this.def.name });
      if (ev.type === 'error') throw new Error(ev.value.error.message);
      if (ev.type === 'invalid_stream') throw new Error(ev.value.message);
      if (ev.type === 'agent_execution_stopped' || ev.type === 'agent_execution_blocked')
        throw new Error(ev.value.reason);
    }
    const calls = turn.pendingToolCalls.map((c) => ({ ...c, parentCallId: this.ctx.parentCallId }));
    if (!calls.length) return { stop: 'ERROR_NO_COMPLETE_TASK_CALL' };
    return this.answer(calls, signal);
  }

  /** Runs a turn's calls: complete_task here, the agent's tools through the scheduler, the rest refused. */
  private async answer(calls: ToolCallRequestInfo[], signal: AbortSignal): Promise<TurnOutcome> {
    const answers = new Map<string, Part>();
    const allowed = new Set(this.tools.map((t) => t.exposedName));
    const scheduled: ToolCallRequestInfo[] = [];
    let done: string | undefined;
    for (const call of calls) {
      if (call.name === COMPLETE_TASK) {
        const { output, error } = submittedOutput(this.def, call.args);
        if (output !== undefined && done === undefined) done = output;
        const response = error ? { error } : { output: 'Result submitted and task completed.' };
        answers.set(call.callId, { functionResponse: { id: call.callId, name: call.name, response } });
        this.step(error ? `✗ ${COMPLETE_TASK}: ${error}` : `✓ ${COMPLETE_TASK}`);
        continue;
      }
      const tool = this.ctx.runtime.registry.get(call.name);
      if (tool && allowed.has(tool.exposedName)) {
        scheduled.push(call);
        continue;
      }
      const error = `Unauthorized tool call: '${call.name}' is not available to this agent.`;
      answers.set(call.callId, { functionResponse: { id: call.callId, name: call.name, response: { error } } });
      this.step(`✗ ${call.name}: ${error}`);
    }
    if (scheduled.length) {
      const results = await this.ctx.runtime.scheduler.scheduleNested(scheduled, signal);
      for (const c of results) this.record(c, answers);
    }
    const next = calls.map((c) => answers.get(c.callId)!).filter(Boolean);
    if (signal.aborted && done === undefined) return { stop: this.ctx.signal.aborted ? 'ABORTED' : 'TIMEOUT', next };
    if (done !== undefined) return { stop: 'GOAL', result: done };
    return { next };
  }

  private record(call: ToolCall, answers: Map<string, Part>): void {
    const id = call.request.callId;
    const part = call.response?.responseParts.find((p) => p.functionResponse);
    answers.set(
      id,
      part ?? {
        functionResponse: { id, name: call.request.name, response: { error: 'The tool call did not complete.' } },
      },
    );
    const args = JSON.stringify(call.request.args);
    const shown = args.length > 120 ? `${args.slice(0, 117)}...` : args;
    const mark = call.status === 'success' ? '✓' : call.status === 'cancelled' ? '-' : '✗';
    const why = call.status === 'success' ? '' : `: ${call.response?.error ?? call.status}`.split('\n')[0];
    this.step(`${mark} ${call.request.name} ${shown}${why}`);
  }

  private step(line: string): void {
    this.steps.push(line);
    this.ctx.onStep?.(line);
  }
}
