import type { Content, FunctionDeclaration, GenerateContentConfig, Part } from '@google/genai';
import type { ToolCall, ToolCallRequestInfo } from '../scheduler/types.js';
import type { ContentGenerator } from './content-generator.js';
import type { ServerGeminiStreamEvent } from './events.js';
import { DEFAULT_RETRY, GeminiChat, type RequestShape, type RetryConfig } from './gemini-chat.js';
import type { LoopRuntime, LoopTool } from './loop-runtime.js';
import { needsUser } from '../tools/builtin-catalogue.js';
import { MemoryContext } from './memory-context.js';
import { ChatCompressor } from './compression.js';
import type { ChatCompressionInfo } from './events.js';
import { LoopDetector } from './loop-detection.js';
import { checkNextSpeaker } from './next-speaker.js';
import { buildSystemPrompt, corePrompt, type PromptInputs } from './prompts.js';
import { corePromptWriter } from './system-md.js';
import { Turn } from './turn.js';
import { ToolBatchStream } from './tool-batch-stream.js';
import { hookContext, STOP_EXECUTION } from '../scheduler/hook-steps.js';
import { afterAgent, beforeAgent } from './agent-hooks.js';
import { modelHooks } from './model-hooks.js';
import { afterNextRequestSent } from './after-request-sent.js';
import { hostOnly, offeredWith } from '../tools/builtin-catalogue.js';
import { exposedName } from '../tools/naming.js';
import { INVOKE_AGENT } from '../tools/invoke-agent.js';
import { forPlansOnly, isPlanWriteTool } from '../policy/plan-files.js';

/** Model requests caused by one user message, tool continuations included. */
export const MAX_TURNS = 100;
export const CONTINUE_TEXT = 'Please continue.';

export interface GeminiClientOptions {
  runtime: LoopRuntime;
  generator: ContentGenerator;
  model: string;
  /** `model.maxSessionTurns`; ≤ 0 is unlimited. */
  maxSessionTurns?: number;
  /** `model.skipNextSpeakerCheck` (default true). */
  skipNextSpeakerCheck?: boolean;
  retry?: RetryConfig;
  generationConfig?: GenerateContentConfig;
  log?: (msg: string) => void;
  /** `model.disableLoopDetection`. */
  disableLoopDetection?: boolean;
  /** `model.compressionThreshold` (fraction of the context window; default 0.5). */
  compressionThreshold?: number;
  /** The user's core prompt (`GEMINI_SYSTEM_MD`, system-md.ts), in place of the built-in one. */
  systemMd?: string;
  /** Where to write the core prompt in use (`GEMINI_WRITE_SYSTEM_MD`), each time it changes. */
  writeSystemMd?: string;
}

/** Snapshots the project before a turn's edits run (`general.checkpointing.enabled`). */
export interface EditCheckpointer {
  beforeTools(requests: ToolCallRequestInfo[], history: Content[]): Promise<unknown>;
}

/** Upstream's request defaults; thinking options only for models that think. */
export function defaultGenerationConfig(model: string): GenerateContentConfig {
  const config: GenerateContentConfig = { temperature: 1, topP: 0.95, topK: 64 };
  if (/gemini-2\.5/.test(model)) config.thinkingConfig = { includeThoughts: true, thinkingBudget: 8192 };
  else if (/gemini-3/.test(model)) config.thinkingConfig = { includeThoughts: true };
  return config;
}

/** Stream events after which the message's work ends. */
const ENDS_TURN = new Set<string>([
  'error',
  'invalid_stream',
  'user_cancelled',
  'agent_execution_stopped',
  'agent_execution_blocked',
]);

/**
 * One answer per requested call, in request order: the scheduler's parts, or an error response for a call
 * that has none, since the API rejects a turn whose function calls and responses do not pair up.
 */
export function answerAll(requests: ToolCallRequestInfo[], calls: ToolCall[], fallback: string): Part[] {
  const byId = new Map(calls.map((c) => [c.request.callId, c]));
  return requests.flatMap((r) => {
    const parts = byId.get(r.callId)?.response?.responseParts;
    if (parts?.some((p) => p.functionResponse)) return parts;
    return [{ functionResponse: { id: r.callId, name: r.name, response: { error: fallback } } }];
  });
}

/** Orchestrates user messages: turns, the tool loop through the scheduler, limits, next-speaker checks. */
export class GeminiClient {
  readonly chat: GeminiChat;
  private readonly memory: MemoryContext;
  /** GEMINI_WRITE_SYSTEM_MD (system-md.ts). */
  private readonly writeCore?: (core: string, withListings: boolean) => void;
  private readonly ids = { next: 0 };
  private sessionTurns = 0;
  checkpointer?: EditCheckpointer;
  private readonly compressor: ChatCompressor;
  /** The user's latest words: what decides which tools are most relevant when not all can be declared. */
  private hint = '';
  private readonly batches = new ToolBatchStream();

  constructor(private readonly opts: GeminiClientOptions) {
    this.compressor = new ChatCompressor(opts.compressionThreshold);
    this.memory = new MemoryContext(opts.runtime.manager, opts.log);
    this.writeCore = opts.writeSystemMd ? corePromptWriter(opts.writeSystemMd, opts.log) : undefined;
    this.chat = new GeminiChat(opts.generator, opts.model, () => this.requestShape(), opts.retry ?? DEFAULT_RETRY);
    const { hooks, registry } = opts.runtime;
    if (hooks && (hooks.has('BeforeModel') || hooks.has('AfterModel') || hooks.has('BeforeToolSelection')))
      this.chat.modelHooks = modelHooks(hooks, (name) => registry.get(name)?.exposedName);
  }

  get model(): string {
    return this.chat.model;
  }

  /** A model name or alias (`pro`, `auto`) for the rest of the session; its fallbacks start afresh. */
  setModel(model: string): void {
    this.chat.model = model;
  }

  /** What the user chose, the model it starts on, and the one in use (another after a usage limit). */
  get modelChoice(): { requested: string; inUse: string; first: string } {
    const s = this.chat.selection;
    return { requested: s.requested, inUse: s.inUse, first: s.chain[0]! };
  }

  getHistory(curated = false): Content[] {
    return this.chat.getHistory(curated);
  }

  /** Whether this client has armed the warm start of recently used servers (one per session). */
  private warming = false;

  /**
   * Whether the model is offered the tool: not when policy denies its every call (in a headless run the
   * tools that would need a confirmation, in plan mode every tool that is not read-only), so the model
   * does not spend turns on them. Asked per request, so a changed approval mode shows at once. A call to a
   * left-out tool still gets the policy's denial text. Nor, when nobody can answer a form (headless), the
   * tools only a person can answer (ask_user), as Gemini CLI 0.61 leaves them out; a call still gets their
   * "no user is available" answer.
   */
  private offered = (tool: LoopTool): boolean => {
    const { policy, registry, clientRequests } = this.opts.runtime;
    if (clientRequests && !clientRequests.hasUser && needsUser(tool)) return false;
    // Named nowhere to the model, in the prompt's tool list either (the registry leaves it out of searches).
    if (hostOnly(tool)) return false;
    if (policy?.isStaticallyDenied(tool)) return false;
    // Tools that only serve another (a background job's, the shell's) go where it goes.
    const partner = offeredWith(tool);
    if (!partner) return true;
    const main = registry.get(exposedName(tool.serverAlias, partner));
    return main !== undefined && !policy?.isStaticallyDenied(main);
  };

  /** The system instruction for the next request, as built from the live registry and servers. */
  async systemInstruction(): Promise<string> {
    const { registry, manager, roots } = this.opts.runtime;
    const all = registry.list();
    const tools = all.filter(this.offered);
    // A server none of whose tools is offered would only describe tools the model cannot call. (A set: a
    // search of the offered list per tool was quadratic, ~450,000 comparisons with 100 servers.)
    const offeredBy = new Set(tools.map((t) => t.serverAlias));
    const hidden = new Set(all.map((t) => t.serverAlias).filter((alias) => !offeredBy.has(alias)));
    const instructions = manager
      .states()
      .filter((s) => s.status === 'connected' && s.instructions && !hidden.has(s.alias))
      .map((s) => ({ alias: s.alias, text: s.instructions! }));
    const plansFolder = this.opts.runtime.policy?.activePlansFolder();
    const { skills, extensionContext, agents } = this.opts.runtime;
    // Listed only while the model may call invoke_agent (tools.exclude, plan mode may take it away).
    const subAgents = tools.some((t) => t.exposedName === INVOKE_AGENT) ? agents?.agents : undefined;
    const inputs: PromptInputs = {
      tools,
      instructions,
      memory: await this.memory.get(),
      roots,
      skills,
      extensionContext,
      plansFolder,
      approvedPlan: plansFolder ? undefined : this.approvedPlan,
      subAgents,
      interactiveShell: this.opts.runtime.scheduler?.userTerminal !== undefined,
      override: this.opts.systemMd,
    };
    this.writeCore?.(corePrompt(inputs), this.opts.systemMd === undefined);
    return buildSystemPrompt(inputs);
  }

  private async requestShape(): Promise<RequestShape> {
    const { manager } = this.opts.runtime;
    // A tool a server announced during the last turn is declared in this very request.
    await manager.whenListsFresh?.();
    // Servers recent sessions used start while the model thinks, once this request is written.
    if (manager.warmUp && !this.warming) {
      this.warming = true;
      afterNextRequestSent(() => manager.warmUp?.());
    }
    return {
      systemInstruction: await this.systemInstruction(),
      tools: this.declared(),
      generationConfig: this.opts.generationConfig ?? defaultGenerationConfig(this.chat.model),
    };
  }

  /** The tools for the next request; in plan mode write_file and replace say they write plans only, as in 0.61. */
  private declared(): FunctionDeclaration[] {
    const { registry, policy } = this.opts.runtime;
    const declarations = registry.declarations(this.offered, this.hint);
    const folder = policy?.activePlansFolder();
    if (folder === undefined) return declarations;
    const writers = new Set(
      registry
        .list()
        .filter(isPlanWriteTool)
        .map((t) => t.exposedName),
    );
    return declarations.map((d) => (writers.has(d.name ?? '') ? forPlansOnly(d, folder) : d));
  }

  /** Runs one user message to completion; yields every event on the way. */
  async *sendMessageStream(
    parts: Part[],
    signal: AbortSignal,
    promptId: string,
  ): AsyncGenerator<ServerGeminiStreamEvent> {
    const typed = parts
      .map((p) => p.text ?? '')
      .join(' ')
      .trim();
    if (typed) this.hint = typed;
    const admitted = yield* this.admit(parts, signal);
    if (!admitted) return;
    let next = admitted;
    let retrying = false;
    // Tool answers not yet sent are still recorded when the loop stops, so no call is left unanswered.
    const stop = (): void => {
      if (next.some((p) => p.functionResponse)) this.chat.addHistory({ role: 'user', parts: next });
    };
    const loops = this.opts.disableLoopDetection ? undefined : new LoopDetector();
    for (let turns = 0; ; turns++) {
      const limit = this.limitReached(turns, signal);
      if (limit) {
        stop();
        yield limit;
        return;
      }
      this.sessionTurns++;
      const compressed = await this.compress(signal, false);
      if (compressed.status === 'compressed') yield { type: 'chat_compressed', value: compressed };
      const turn = new Turn(this.chat, promptId, this.ids);
      let stopped = false;
      for await (const ev of turn.run(next, signal)) {
        const loop = loops?.check(ev);
        if (loop) {
          // Leaving the stream unfinished drops this model turn: its repeated call never runs.
          yield { type: 'loop_detected', value: loop };
          return;
        }
        yield ev;
        if (ENDS_TURN.has(ev.type)) stopped = true;
      }
      this.compressor.notePromptTokens(turn.usage?.promptTokenCount);
      if (stopped) return;

      if (turn.pendingToolCalls.length) {
        const answers = yield* this.answerTools(turn.pendingToolCalls, signal);
        if (!answers) return;
        next = answers;
        continue;
      }
      const again = yield* this.afterAnswer(typed, turn.text, retrying, signal);
      if (again) {
        retrying = true;
        next = again;
        continue;
      }
      if (this.opts.skipNextSpeakerCheck ?? true) return;
      const speaker = await checkNextSpeaker({
        comprehensive: this.chat.getHistory(false),
        curated: this.chat.getHistory(true),
        generator: this.opts.generator,
        model: this.chat.model,
        signal,
        retry: this.retryOptions(),
      });
      if (speaker !== 'model' || signal.aborted) return;
      next = [{ text: CONTINUE_TEXT }];
    }
  }

  /**
   * The message as it goes to the model after BeforeAgent hooks and any SessionStart context, or undefined
   * when a hook blocked or stopped it.
   */
  private async *admit(
    parts: Part[],
    signal: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, Part[] | undefined> {
    const gate = await beforeAgent(this.opts.runtime.hooks, parts, signal);
    if (gate.kind === 'stopped') {
      this.chat.addHistory({ role: 'user', parts });
      yield { type: 'agent_execution_stopped', value: { reason: gate.reason } };
      return undefined;
    }
    if (gate.kind === 'blocked') {
      yield { type: 'agent_execution_blocked', value: { reason: gate.reason } };
      return undefined;
    }
    if (!this.startContext) return gate.parts;
    const context = this.startContext;
    this.startContext = undefined;
    return [{ text: hookContext(context) }, ...gate.parts];
  }

  /** The event that ends the loop before another model request: a cancel, or a turn limit. */
  private limitReached(turns: number, signal: AbortSignal): ServerGeminiStreamEvent | undefined {
    if (signal.aborted) return { type: 'user_cancelled' };
    if (turns >= MAX_TURNS) return { type: 'max_session_turns', value: { limit: MAX_TURNS, scope: 'message' } };
    const maxSession = this.opts.maxSessionTurns ?? -1;
    if (maxSession > 0 && this.sessionTurns >= maxSession)
      return { type: 'max_session_turns', value: { limit: maxSession, scope: 'session' } };
    return undefined;
  }

  /** Runs a turn's calls; the answers to send next, or undefined when the loop ends here. */
  private async *answerTools(
    requests: ToolCallRequestInfo[],
    signal: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, Part[] | undefined> {
    let calls: ToolCall[];
    try {
      await this.checkpointer?.beforeTools(requests, this.chat.getHistory(false));
      calls = yield* this.batches.run(this.opts.runtime.scheduler, requests, signal);
    } catch (err) {
      const message = `Tool execution failed: ${(err as Error)?.message ?? String(err)}`;
      this.chat.addHistory({ role: 'user', parts: answerAll(requests, [], message) });
      throw err;
    }
    const responseParts = answerAll(requests, calls, 'The tool call did not complete.');
    const stopped = calls.find((c) => c.response?.errorType === STOP_EXECUTION);
    // Every call is answered, even when the loop stops here, so the history stays well-formed.
    if (stopped || signal.aborted || calls.every((c) => c.status === 'cancelled')) {
      this.chat.addHistory({ role: 'user', parts: responseParts });
      if (stopped) yield { type: 'agent_execution_stopped', value: { reason: stopped.response!.responseText } };
      else if (signal.aborted) yield { type: 'user_cancelled' };
      return undefined;
    }
    return responseParts;
  }

  /** AfterAgent hooks on a final answer: the prompt to send when a hook asked for another answer. */
  private async *afterAnswer(
    prompt: string,
    answer: string,
    retrying: boolean,
    signal: AbortSignal,
  ): AsyncGenerator<ServerGeminiStreamEvent, Part[] | undefined> {
    const after = await afterAgent(this.opts.runtime.hooks, prompt, answer, retrying, signal);
    if (after.kind === 'done') return undefined;
    if (after.clearContext) this.chat.setHistory([], 'hook');
    yield {
      type: after.kind === 'stopped' ? 'agent_execution_stopped' : 'agent_execution_blocked',
      value: { reason: after.reason },
    };
    // The hook's reason is the next prompt: the model gets another go at its answer.
    return after.kind === 'retry' ? [{ text: after.reason }] : undefined;
  }

  /** Reports an event of work a tool call does on the loop's behalf (a subagent's model request). */
  report(ev: ServerGeminiStreamEvent): void {
    this.batches.report(ev);
  }

  /** Summarises older history now when it passes the threshold, or always with `force` (`/compress`). */
  compress(signal: AbortSignal, force: boolean): Promise<ChatCompressionInfo> {
    const hooks = this.opts.runtime.hooks;
    // Fired only when a summary will really be made (Gemini CLI fires it on every check): advisory.
    const pre = hooks?.has('PreCompress')
      ? async () =>
          void (await hooks.fire(
            'PreCompress',
            { trigger: force ? 'manual' : 'auto' },
            { trigger: force ? 'manual' : 'auto' },
            signal,
          ))
      : undefined;
    return this.compressor.run(this.chat, this.opts.generator, signal, force, pre);
  }

  /** SessionStart's additionalContext: sent with the first message of the session. */
  startContext?: string;

  /** The plan the user approved (exit_plan_mode): the system prompt points the model at it from then on. */
  approvedPlan?: string;

  private retryOptions() {
    const r = this.opts.retry ?? DEFAULT_RETRY;
    return {
      maxAttempts: r.maxAttempts,
      initialDelayMs: r.initialDelayMs,
      maxDelayMs: r.maxDelayMs,
      retryFetchErrors: r.retryFetchErrors,
    };
  }

  dispose(): void {
    this.memory.dispose();
  }
}
