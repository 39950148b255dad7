import { tokenLimit } from '../../core/compression.js';
import { gitBranch } from '../git-branch.js';
import type { ServerGeminiStreamEvent } from '../../core/events.js';
import type { App } from './app.js';
import { coreNotice } from './core-notices.js';
import type { RunStats } from '../../core/run-stats.js';

/** Turns one turn's stream events into conversation items: streamed model text, thoughts, tool cards. */
export class StreamView {
  private modelItem?: number;

  constructor(
    private readonly app: App,
    private readonly stats: RunStats,
  ) {}

  /** The model's current message stops streaming (a tool call, a thought, or the turn ended). */
  finishModelItem(): void {
    if (this.modelItem === undefined) return;
    this.app.conv.update(this.modelItem, (it) => {
      if (it.kind === 'model') it.streaming = false;
    });
    this.modelItem = undefined;
  }

  onEvent(ev: ServerGeminiStreamEvent): void {
    const app = this.app;
    const p = app.palette;
    switch (ev.type) {
      case 'content':
        this.appendText(ev.value);
        break;
      case 'thought':
        this.finishModelItem();
        app.conv.add({ kind: 'thought', subject: ev.value.subject, description: ev.value.description });
        app.setBusy(ev.value.subject || 'Thinking');
        break;
      case 'tool_call_request':
        this.finishModelItem();
        break;
      case 'tool_call_update':
      case 'tool_call_response':
        this.finishModelItem();
        app.conv.upsertTool(ev.value);
        break;
      case 'retry':
        if (ev.value.discardPartial) this.replaceText('');
        if (app.busy)
          app.busy.retry = {
            text: p.yellow(`${ev.value.reason}: retry ${ev.value.attempt + 1}/${ev.value.maxAttempts}`),
            until: Date.now() + ev.value.delayMs,
          };
        break;
      case 'model_fallback':
        this.finishModelItem();
        app.conv.add({ kind: 'info', text: p.yellow(ev.value.message) });
        app.status.model = ev.value.to;
        break;
      case 'usage': {
        // The controller has counted this usage in the session's one RunStats before the view sees it.
        app.status.tokens = this.stats.totalTokens();
        // A subagent's request fills its own conversation, not the session's context window.
        const prompt = ev.value.subagent ? undefined : ev.value.usage.promptTokenCount;
        if (prompt) app.status.contextLeft = Math.max(0, 1 - prompt / tokenLimit(app.status.model));
        // A turn may have switched branches (git checkout through the shell): the footer follows.
        app.status.branch = gitBranch(app.status.cwd);
        break;
      }
      case 'error':
        this.finishModelItem();
        app.conv.add({ kind: 'error', text: `Error: ${ev.value.error.message}` });
        break;
      case 'invalid_stream':
        app.conv.add({
          kind: 'error',
          text: `The model's response was unusable (${ev.value.type}): ${ev.value.message}`,
        });
        break;
      case 'user_cancelled':
        this.finishModelItem();
        app.conv.add({ kind: 'info', text: p.gray('Request cancelled.') });
        break;
      case 'max_session_turns':
        app.conv.add({
          kind: 'info',
          text: p.yellow(`Stopped: the ${ev.value.scope} turn limit (${ev.value.limit}) was reached.`),
        });
        break;
      default: {
        const note = coreNotice(ev, p);
        if (note) app.conv.add(note);
      }
    }
    app.requestRender();
  }

  private appendText(text: string): void {
    const app = this.app;
    if (this.modelItem === undefined) this.modelItem = app.conv.add({ kind: 'model', text: '', streaming: true });
    app.conv.update(this.modelItem, (it) => {
      if (it.kind === 'model') it.text += text;
    });
    app.setBusy('Responding');
    app.noteChunk();
  }

  private replaceText(text: string): void {
    if (this.modelItem === undefined) return;
    this.app.conv.update(this.modelItem, (it) => {
      if (it.kind === 'model') it.text = text;
    });
  }
}
