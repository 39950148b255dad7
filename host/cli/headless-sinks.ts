import { randomUUID } from 'node:crypto';
import stripAnsi from 'strip-ansi';
import type { FatalError } from '../errors.js';
import type { ToolCall } from '../scheduler/types.js';
import type { OutputFormat } from '../cli-args.js';
import type { RunStats } from '../core/run-stats.js';
import { toolErrorText, toolOutputText } from './output.js';
import { todosSetBy } from '../core/session-todos.js';
import type { Todo } from '../tools/write-todos.js';

export interface SinkIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

/** What a headless run reports, in the order it happens; each output format renders it its own way. */
export interface OutputSink {
  init(sessionId: string, model: string): void;
  warn(message: string): void;
  userPrompt(prompt: string): void;
  /** Results of the user's own `@tool(...)` calls, shown instead of being sent to the model. */
  display(text: string): void;
  content(text: string): void;
  /** The model's message ended (a tool call follows, or the turn is over). */
  messageEnded(): void;
  /** A retried request: what streamed of the failed attempt does not count. */
  discardPartial(): void;
  toolRequest(req: { name: string; callId: string; args: unknown }): void;
  toolResult(call: ToolCall): void;
  end(failure: FatalError | undefined, stats: RunStats): void;
}

/** Plain text: the model's words on stdout as they stream, warnings and errors on stderr. */
class TextSink implements OutputSink {
  private wrote = false;
  private lastChar = '\n';
  private breakBeforeNext = false;

  constructor(private readonly io: SinkIo) {}

  init(): void {}
  userPrompt(): void {}
  discardPartial(): void {}
  warn(message: string): void {
    this.io.err(`${message}\n`);
  }
  display(text: string): void {
    this.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  content(text: string): void {
    const clean = stripAnsi(text);
    if (!clean) return;
    // Messages before and after a tool call are separate paragraphs, not one run-on line.
    if (this.breakBeforeNext && this.lastChar !== '\n') this.write('\n');
    this.breakBeforeNext = false;
    this.write(clean);
  }
  messageEnded(): void {
    this.breakBeforeNext = this.wrote;
  }
  toolRequest(): void {
    this.messageEnded();
  }
  toolResult(call: ToolCall): void {
    const error = toolErrorText(call);
    if (error !== undefined) this.io.err(`Error executing tool ${call.request.name}: ${error}\n`);
  }
  end(failure: FatalError | undefined): void {
    if (this.wrote && this.lastChar !== '\n') this.io.out('\n');
    if (failure) this.io.err(`${failure.type === 'FatalCancellationError' ? '' : 'Error: '}${failure.message}\n`);
  }

  private write(s: string): void {
    this.io.out(s);
    this.wrote = true;
    this.lastChar = s[s.length - 1]!;
  }
}

/** One JSON object at the end: the last message's text, stats, warnings and the error if any. */
class JsonSink implements OutputSink {
  private finalText = '';
  private ended = false;
  /** Replaced by the session's id once it started; a run that failed before still reports one. */
  private sessionId: string = randomUUID();
  private readonly warnings: string[] = [];
  /** The task list write_todos left (the last one set), reported with the response. */
  private todos?: Todo[];

  constructor(private readonly io: SinkIo) {}

  init(sessionId: string): void {
    this.sessionId = sessionId;
  }
  userPrompt(): void {}
  display(text: string): void {
    this.io.out(text.endsWith('\n') ? text : `${text}\n`);
  }
  warn(message: string): void {
    this.warnings.push(message);
    this.io.err(`${message}\n`);
  }
  content(text: string): void {
    // `response` is the final answer: text after a finished message starts a new one.
    if (this.ended) this.finalText = '';
    this.ended = false;
    this.finalText += text;
  }
  messageEnded(): void {
    this.ended = true;
  }
  discardPartial(): void {
    this.finalText = '';
    this.ended = false;
  }
  toolRequest(): void {
    this.finalText = '';
  }
  toolResult(call: ToolCall): void {
    this.todos = todosSetBy(call) ?? this.todos;
  }
  end(failure: FatalError | undefined, stats: RunStats): void {
    const obj: Record<string, unknown> = { session_id: this.sessionId, response: this.finalText, stats: stats.json() };
    if (this.todos) obj.todos = this.todos;
    if (failure) obj.error = { type: failure.type, message: failure.message, code: failure.exitCode };
    if (this.warnings.length) obj.warnings = this.warnings;
    this.io.out(`${JSON.stringify(obj, null, 2)}\n`);
  }
}

/** One JSON event per line as things happen (init, message, tool_use, tool_result, error, result). */
class StreamJsonSink implements OutputSink {
  constructor(private readonly io: SinkIo) {}

  private emit(obj: Record<string, unknown>): void {
    this.io.out(`${JSON.stringify({ ...obj, timestamp: new Date().toISOString() })}\n`);
  }
  init(sessionId: string, model: string): void {
    this.emit({ type: 'init', session_id: sessionId, model });
  }
  warn(message: string): void {
    this.emit({ type: 'error', severity: 'warning', message });
  }
  userPrompt(prompt: string): void {
    this.emit({ type: 'message', role: 'user', content: prompt });
  }
  display(text: string): void {
    this.io.out(text.endsWith('\n') ? text : `${text}\n`);
  }
  content(text: string): void {
    this.emit({ type: 'message', role: 'assistant', content: text, delta: true });
  }
  messageEnded(): void {}
  discardPartial(): void {}
  toolRequest(req: { name: string; callId: string; args: unknown }): void {
    this.emit({ type: 'tool_use', tool_name: req.name, tool_id: req.callId, parameters: req.args });
  }
  toolResult(call: ToolCall): void {
    const error = toolErrorText(call);
    const todos = todosSetBy(call);
    this.emit({
      type: 'tool_result',
      tool_id: call.request.callId,
      status: error === undefined ? 'success' : 'error',
      ...(error === undefined
        ? { output: toolOutputText(call) }
        : { error: { type: call.response?.errorType ?? call.status, message: error } }),
      // write_todos: the whole list it set, for a reader that shows the task list.
      ...(todos ? { todos } : {}),
    });
  }
  end(failure: FatalError | undefined, stats: RunStats): void {
    if (failure && failure.type !== 'FatalCancellationError')
      this.emit({ type: 'error', severity: 'error', message: failure.message });
    this.emit({
      type: 'result',
      status: failure ? 'error' : 'success',
      ...(failure ? { error: { type: failure.type, message: failure.message } } : {}),
      stats: stats.streamJson(),
    });
  }
}

export function createSink(format: OutputFormat, io: SinkIo): OutputSink {
  if (format === 'json') return new JsonSink(io);
  if (format === 'stream-json') return new StreamJsonSink(io);
  return new TextSink(io);
}
