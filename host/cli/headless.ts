import { isAuthStatus } from '../core/api-error-text.js';
import type { ServerGeminiStreamEvent } from '../core/events.js';
import type { Session } from '../core/session.js';
import {
  asFatal,
  FatalAuthenticationError,
  FatalCancellationError,
  type FatalError,
  FatalInputError,
  FatalSandboxError,
  FatalTurnLimitedError,
  RunError,
} from '../errors.js';
import { createHostLogger } from '../log.js';
import type { McpClientManager, ServerState } from '../mcp/client-manager.js';
import { type CliArgs, sessionFlags } from '../cli-args.js';
import { createSink, type OutputSink } from './headless-sinks.js';
import { RunStats } from '../core/run-stats.js';
import { safeBlock } from '../safe-text.js';

export interface HeadlessIo {
  stdinText: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
}

/**
 * The run's input: `piped` stdin and the `typed` `-p` / positional prompt, and `prompt`, the two joined
 * stdin first, as Gemini CLI joins them.
 */
export function headlessPrompt(args: CliArgs, stdinText: string): { piped: string; typed: string; prompt: string } {
  const typed = [args.prompt, args.positional].filter((s): s is string => !!s && s.trim() !== '').join(' ');
  const piped = stdinText.trim() ? stdinText.replace(/\s+$/, '') : '';
  return { piped, typed, prompt: [piped, typed].filter(Boolean).join('\n\n') };
}

/** The failure a stream event ends the run with, if it is one. */
function failureOf(ev: ServerGeminiStreamEvent): FatalError | undefined {
  switch (ev.type) {
    case 'error':
      // A refused key is an authentication failure (exit 41), whether it is missing or wrong.
      return isAuthStatus(ev.value.error.status)
        ? new FatalAuthenticationError(ev.value.error.message)
        : new RunError(ev.value.error.message, 'ApiError');
    case 'invalid_stream':
      return new RunError(`Invalid model response (${ev.value.type}): ${ev.value.message}`, 'ApiError');
    case 'max_session_turns':
      return new FatalTurnLimitedError(
        ev.value.scope === 'message'
          ? `Reached the limit of ${ev.value.limit} model turns for one prompt.`
          : `Reached the session turn limit (model.maxSessionTurns = ${ev.value.limit}).`,
      );
    case 'user_cancelled':
      return new FatalCancellationError();
    case 'loop_detected':
      return new RunError(ev.value.message, 'LoopDetectedError');
    default:
      return undefined;
  }
}

/** Hands one stream event to the sink and the stats. */
function report(
  ev: ServerGeminiStreamEvent,
  sink: OutputSink,
  stats: RunStats,
  model: string,
  warn: (m: string) => void,
): void {
  switch (ev.type) {
    case 'content':
      sink.content(ev.value);
      break;
    case 'finished':
      sink.messageEnded();
      break;
    case 'tool_call_request':
      sink.toolRequest(ev.value);
      break;
    case 'tool_call_response':
      stats.tool(ev.value);
      sink.toolResult(ev.value);
      break;
    case 'retry': {
      const v = ev.value;
      if (v.discardPartial) sink.discardPartial();
      warn(
        `Model request failed (${v.reason}); retrying in ${(v.delayMs / 1000).toFixed(1)}s ` +
          `(attempt ${v.attempt + 1} of ${v.maxAttempts})${v.discardPartial ? '; the partial response above is discarded' : ''}.`,
      );
      break;
    }
    case 'model_fallback':
      warn(ev.value.message);
      break;
    case 'usage':
      stats.usage(ev.value.model, ev.value.usage, ev.value.durationMs);
      break;
    case 'error':
    case 'invalid_stream':
      stats.apiError(model);
      break;
    case 'agent_execution_stopped':
    case 'agent_execution_blocked':
      warn(ev.value.reason);
      break;
    case 'chat_compressed':
      warn(`Chat history compressed: ${ev.value.originalTokenCount} → ${ev.value.newTokenCount} tokens.`);
      break;
    default:
      break;
  }
}

interface RunContext {
  args: CliArgs;
  io: HeadlessIo;
  sink: OutputSink;
  stats: RunStats;
  signal: AbortSignal;
  warn: (m: string) => void;
  err: (s: string) => void;
  debug?: (m: string) => void;
  session?: Session;
}

/** One prompt, start to end; returns the failure it ended with, if any. */
async function runPrompt(ctx: RunContext): Promise<FatalError | undefined> {
  const { args, io, sink, stats, signal, warn } = ctx;
  const { piped, typed, prompt } = headlessPrompt(args, io.stdinText);
  if (!prompt.trim())
    throw new FatalInputError(
      'No input provided via stdin. Input can be provided by piping data into gemini-mcp or using the --prompt option.',
    );
  const { createSession } = await import('../core/session.js');
  const session = await createSession({
    ...sessionFlags(args),
    cwd: io.cwd,
    env: io.env ?? process.env,
    interactive: false,
    log: args.debug ? createHostLogger({ debug: true }) : undefined,
    notify: warn,
    // A hook's systemMessage goes to stderr as it is, in every output format, as Gemini CLI writes it.
    onHookMessage: (m) => (m.kind === 'system' ? ctx.err(`${m.text}\n`) : warn(m.text)),
  });
  ctx.session = session;
  const { runtime, model } = session;
  // Asked for confinement and none can be had: no command may run unconfined, and no answer is given as if.
  if (runtime.sandbox.unavailable) throw new FatalSandboxError(runtime.sandbox.unavailable);
  ctx.stats.sampling = () => runtime.clientRequests.sampling.json() as Record<string, unknown>;
  // A subagent's calls are nested batches of the one scheduler, not events of the stream: counted here.
  runtime.scheduler.on('event', (e) => {
    if (e.type === 'all_complete') for (const c of e.calls) if (c.request.parentCallId) ctx.stats.tool(c);
  });
  // Notices go to stderr in every output format: stdout stays the answer a script parses.
  for (const notice of runtime.notices) ctx.err(`${notice}\n`);
  sink.init(session.sessionId, model);
  // Headless waits for MCP startup so the first request sees every tool, except a slow server's
  // (bounded by the startup grace): it joins when ready, and its failure is still reported.
  await runtime.manager.whenReady();
  reportServerStartup(runtime.manager, warn);
  for (const w of [...runtime.settings.warnings, ...runtime.registry.warnings()]) ctx.debug?.(w);
  sink.userPrompt(prompt);

  const promptId = `${session.sessionId}########0`;
  const { preparePrompt } = await import('../core/prepare-prompt.js');
  const { runHeadlessSlash } = await import('./headless-commands.js');
  // A custom command, a built-in that makes sense without a screen, an MCP prompt, or text with `@` refs.
  const prepared = await preparePrompt(typed, {
    runtime,
    signal,
    promptId,
    warn,
    piped,
    onCall: (c) => stats.tool(c),
    builtIn: (text) => runHeadlessSlash(text, { runtime }),
  });
  if (prepared.kind === 'error') throw new FatalInputError(prepared.message);
  if (prepared.kind === 'show') {
    if (prepared.text) sink.content(prepared.text);
    sink.messageEnded();
    return undefined;
  }
  if (prepared.display) sink.display(prepared.display);
  if (prepared.typed) ctx.session?.recorder?.noteTyped(prepared.typed);
  return prepared.parts.length ? sendParts(ctx, prepared.parts, promptId) : undefined;
}

/** Sends prepared parts (an expanded custom command) and reports the turn. */
async function sendParts(ctx: RunContext, parts: import('@google/genai').Part[], promptId: string) {
  const { sink, stats, signal, warn } = ctx;
  const { client } = ctx.session!;
  let failure: FatalError | undefined;
  for await (const ev of client.sendMessageStream(parts, signal, promptId)) {
    report(ev, sink, stats, client.model, warn);
    failure = failureOf(ev) ?? failure;
  }
  return failure;
}

export async function runHeadless(args: CliArgs, io: HeadlessIo): Promise<number> {
  const out = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const rawErr = io.stderr ?? ((s: string) => void process.stderr.write(s));
  // Everything on stderr (notices, server failures with their stderr tails, tool errors) can carry a
  // server's words; headless adds no styling, so the whole stream is made safe for the terminal.
  const err = (s: string) => rawErr(safeBlock(s));
  const sink = createSink(args.outputFormat, { out, err });
  const controller = new AbortController();
  const ctx: RunContext = {
    args,
    io,
    sink,
    stats: new RunStats(),
    signal: controller.signal,
    warn: (m) => sink.warn(m),
    err,
    debug: args.debug ? (msg: string) => err(`[debug] ${msg}\n`) : undefined,
  };
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(130); // a second Ctrl-C does not wait for servers to wind down
    controller.abort(new Error('Cancelled by the user (SIGINT).'));
  };
  process.on('SIGINT', onSigint);

  let failure: FatalError | undefined;
  try {
    failure = await runPrompt(ctx);
    if (controller.signal.aborted && !failure) failure = new FatalCancellationError();
  } catch (e) {
    failure = controller.signal.aborted ? new FatalCancellationError() : asFatal(e);
  }
  sink.end(failure, ctx.stats);
  await ctx.session?.close().catch((e: unknown) => ctx.debug?.(`shutdown: ${(e as Error).message}`));
  process.off('SIGINT', onSigint);
  return failure?.exitCode ?? 0;
}

/** Failed servers are reported now; a server still starting is reported if it fails later. */
function reportServerStartup(manager: McpClientManager, warn: (m: string) => void): void {
  const starting = new Set<string>();
  for (const s of manager.states()) {
    if (s.status === 'failed') warn(`MCP server "${s.alias}" failed to start: ${s.error ?? 'unknown error'}`);
    if (s.status !== 'connecting') continue;
    warn(`MCP server "${s.alias}" is still starting; its tools join the session when it is ready`);
    starting.add(s.alias);
  }
  if (starting.size === 0) return;
  // One listener for all of them: many slow servers must not look like a listener leak.
  const late = (st: ServerState) => {
    if (!starting.has(st.alias) || st.status === 'connecting') return;
    starting.delete(st.alias);
    if (starting.size === 0) manager.off('status', late);
    if (st.status === 'failed') warn(`MCP server "${st.alias}" failed to start: ${st.error ?? 'unknown error'}`);
  };
  manager.on('status', late);
}
