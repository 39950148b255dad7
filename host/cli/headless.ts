import { randomUUID } from 'node:crypto';
import stripAnsi from 'strip-ansi';
import type { Part } from '@google/genai';
import type { Session } from '../core/session.js';
import type { ServerGeminiStreamEvent } from '../core/events.js';
import type { McpClientManager, ServerState } from '../mcp/client-manager.js';
import { isAuthStatus } from '../core/api-error-text.js';
import { createHostLogger } from '../log.js';
import { InputError, type CliArgs } from './args.js';
import { FAILURES, RunStats, toolErrorText, toolOutputText, type FailureKind } from './output.js';

export interface HeadlessIo {
  stdinText: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
}

interface Failure {
  kind: FailureKind;
  message: string;
}

/** Stdin first, then `-p` / the positional prompt, as Gemini CLI joins them. */
export function headlessPrompt(args: CliArgs, stdinText: string): string {
  const typed = [args.prompt, args.positional].filter((s): s is string => !!s && s.trim() !== '').join(' ');
  const piped = stdinText.trim() ? stdinText.replace(/\s+$/, '') : '';
  return [piped, typed].filter(Boolean).join('\n\n');
}

function classify(err: unknown): Failure {
  const e = err as Error & { exitCode?: number; name?: string };
  const name = e?.name ?? '';
  if (name === 'AuthError' || e?.exitCode === 41) return { kind: 'auth', message: e.message };
  if (err instanceof InputError || e?.exitCode === 42) return { kind: 'input', message: e.message };
  if (name === 'SettingsError' || e?.exitCode === 52) return { kind: 'config', message: e.message };
  return { kind: 'general', message: e?.message ?? String(err) };
}

export async function runHeadless(args: CliArgs, io: HeadlessIo): Promise<number> {
  const out = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const err = io.stderr ?? ((s: string) => void process.stderr.write(s));
  const env = io.env ?? process.env;
  let sessionId: string = randomUUID();
  const stats = new RunStats();
  const format = args.outputFormat;
  const warnings: string[] = [];
  const emit = (obj: Record<string, unknown>): void => out(JSON.stringify({ ...obj, timestamp: new Date().toISOString() }) + '\n');
  const warn = (message: string): void => {
    warnings.push(message);
    if (format === 'stream-json') emit({ type: 'error', severity: 'warning', message });
    else err(`${message}\n`);
  };
  const debug = args.debug ? (msg: string) => err(`[debug] ${msg}\n`) : undefined;

  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(130); // a second Ctrl-C does not wait for servers to wind down
    controller.abort(new Error('Cancelled by the user (SIGINT).'));
  };
  process.on('SIGINT', onSigint);

  let session: Session | undefined;
  let failure: Failure | undefined;
  let finalText = '';
  let turnEnded = false;
  let wroteText = false;
  let lastChar = '\n';
  try {
    const prompt = headlessPrompt(args, io.stdinText);
    if (!prompt.trim()) throw new InputError('No input provided via stdin. Input can be provided by piping data into gemini-mcp or using the --prompt option.');
    const { createSession } = await import('../core/session.js');
    session = await createSession({
      cwd: io.cwd,
      env,
      interactive: false,
      approvalMode: args.approvalMode,
      allowedMcpServerNames: args.allowedMcpServerNames,
      allowedTools: args.allowedTools,
      includeDirectories: args.includeDirectories,
      model: args.model,
      fakeResponses: args.fakeResponses,
      fakeResponsesNonStrict: args.fakeResponsesNonStrict,
      recordResponses: args.recordResponses,
      resume: args.resume,
      log: args.debug ? createHostLogger({ debug: true }) : undefined,
      notify: warn,
      skipTrust: args.skipTrust,
    });
    const { runtime, client, model } = session;
    sessionId = session.sessionId;
    // Notices go to stderr in every output format: stdout stays the answer a script parses.
    for (const notice of runtime.notices) err(`${notice}\n`);
    if (format === 'stream-json') emit({ type: 'init', session_id: sessionId, model });
    // Headless waits for MCP startup so the first request sees every tool, except a slow server's
    // (bounded by the startup grace): it joins when ready, and its failure is still reported.
    await runtime.manager.whenReady();
    reportServerStartup(runtime.manager, warn);
    for (const w of [...runtime.settings.warnings, ...runtime.registry.warnings()]) debug?.(w);
    if (format === 'stream-json') emit({ type: 'message', role: 'user', content: prompt });

    const promptId = `${sessionId}########0`;
    const { processAtCommands } = await import('../core/at-command.js');
    const prepared = await processAtCommands(prompt, { runtime, signal: controller.signal, promptId, onWarning: warn });
    for (const call of prepared.calls) stats.tool(call);
    if (prepared.display) out(prepared.display.endsWith('\n') ? prepared.display : prepared.display + '\n');
    const parts: Part[] = prepared.parts;

    const handle = (ev: ServerGeminiStreamEvent): void => {
      switch (ev.type) {
        case 'content': {
          if (turnEnded) {
            finalText = '';
            turnEnded = false;
          }
          finalText += ev.value;
          if (format === 'text') {
            const text = stripAnsi(ev.value);
            out(text);
            if (text) {
              wroteText = true;
              lastChar = text[text.length - 1]!;
            }
          } else if (format === 'stream-json') emit({ type: 'message', role: 'assistant', content: ev.value, delta: true });
          break;
        }
        case 'finished':
          turnEnded = true;
          break;
        case 'tool_call_request':
          finalText = '';
          if (format === 'stream-json') emit({ type: 'tool_use', tool_name: ev.value.name, tool_id: ev.value.callId, parameters: ev.value.args });
          break;
        case 'tool_call_response': {
          const call = ev.value;
          stats.tool(call);
          const error = toolErrorText(call);
          if (format === 'stream-json') {
            emit({
              type: 'tool_result',
              tool_id: call.request.callId,
              status: error === undefined ? 'success' : 'error',
              ...(error === undefined
                ? { output: toolOutputText(call) }
                : { error: { type: call.response?.errorType ?? call.status, message: error } }),
            });
          } else if (error !== undefined) {
            err(`Error executing tool ${call.request.name}: ${error}\n`);
          }
          break;
        }
        case 'retry': {
          const v = ev.value;
          if (v.discardPartial) {
            finalText = '';
            turnEnded = false;
          }
          warn(
            `Model request failed (${v.reason}); retrying in ${(v.delayMs / 1000).toFixed(1)}s ` +
              `(attempt ${v.attempt + 1} of ${v.maxAttempts})${v.discardPartial ? '; the partial response above is discarded' : ''}.`,
          );
          break;
        }
        case 'usage':
          stats.usage(ev.value.model, ev.value.usage, ev.value.durationMs);
          break;
        case 'error':
          stats.apiError(model);
          // A refused key is an authentication failure (exit 41), whether it is missing or wrong.
          failure = { kind: isAuthStatus(ev.value.error.status) ? 'auth' : 'api', message: ev.value.error.message };
          break;
        case 'invalid_stream':
          stats.apiError(model);
          failure = { kind: 'api', message: `Invalid model response (${ev.value.type}): ${ev.value.message}` };
          break;
        case 'max_session_turns':
          failure = {
            kind: 'turns',
            message:
              ev.value.scope === 'message'
                ? `Reached the limit of ${ev.value.limit} model turns for one prompt.`
                : `Reached the session turn limit (model.maxSessionTurns = ${ev.value.limit}).`,
          };
          break;
        case 'user_cancelled':
          failure = { kind: 'cancelled', message: 'Operation cancelled.' };
          break;
        case 'loop_detected':
          failure = { kind: 'loop', message: ev.value.message };
          break;
        default:
          break;
      }
    };
    if (!prepared.skipModel) {
      for await (const ev of client.sendMessageStream(parts, controller.signal, promptId)) handle(ev);
    }
    if (controller.signal.aborted && !failure) failure = { kind: 'cancelled', message: 'Operation cancelled.' };
  } catch (e) {
    failure = controller.signal.aborted ? { kind: 'cancelled', message: 'Operation cancelled.' } : classify(e);
  }

  const code = failure ? FAILURES[failure.kind].code : 0;
  const errorObj = failure ? { type: FAILURES[failure.kind].type, message: failure.message, code } : undefined;
  if (format === 'text') {
    if (wroteText && lastChar !== '\n') out('\n');
    if (failure) err(`${failure.kind === 'cancelled' ? '' : 'Error: '}${failure.message}\n`);
  } else if (format === 'json') {
    const obj: Record<string, unknown> = { session_id: sessionId, response: finalText, stats: stats.json() };
    if (errorObj) obj.error = errorObj;
    if (warnings.length) obj.warnings = warnings;
    out(JSON.stringify(obj, null, 2) + '\n');
  } else {
    if (failure && failure.kind !== 'cancelled') emit({ type: 'error', severity: 'error', message: failure.message });
    emit({
      type: 'result',
      status: failure ? 'error' : 'success',
      ...(errorObj ? { error: { type: errorObj.type, message: errorObj.message } } : {}),
      stats: stats.streamJson(),
    });
  }
  await session?.close().catch((e: unknown) => debug?.(`shutdown: ${(e as Error).message}`));
  process.off('SIGINT', onSigint);
  return code;
}

/** Failed servers are reported now; a server still starting is reported if it fails later. */
function reportServerStartup(manager: McpClientManager, warn: (m: string) => void): void {
  for (const s of manager.states()) {
    if (s.status === 'failed') warn(`MCP server "${s.alias}" failed to start: ${s.error ?? 'unknown error'}`);
    if (s.status !== 'connecting') continue;
    warn(`MCP server "${s.alias}" is still starting; its tools join the session when it is ready`);
    const late = (st: ServerState) => {
      if (st.alias !== s.alias || st.status === 'connecting') return;
      manager.off('status', late);
      if (st.status === 'failed') warn(`MCP server "${s.alias}" failed to start: ${st.error ?? 'unknown error'}`);
    };
    manager.on('status', late);
  }
}
