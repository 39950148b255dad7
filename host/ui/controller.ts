import { randomUUID } from 'node:crypto';
import type { Part } from '@google/genai';
import type { SchedulerEvent, ToolCall } from '../scheduler/types.js';
import type { App } from './views/app.js';
import type { UiChatClient, UiRuntime } from './backend-types.js';
import { completeInput } from './input/input-completion.js';
import { processAtCommands } from '../core/at-command.js';
import { completionTable, runSlash } from './slash-commands/slash-commands.js';
import { slashSuggestions, unknownCommandText } from './slash-commands/command-suggestions.js';
import { parseSlash } from './slash-commands/slash-parse.js';
import { ApprovalModeSwitch } from './approval-mode-switch.js';
import { StreamView } from './views/stream-view.js';
import { RunStats } from '../core/run-stats.js';
import type { Session } from '../core/session.js';
import type { SessionRecorder } from '../sessions/recorder.js';
import { runChatCommand } from './slash-commands/chat-commands.js';
import { buildCommandContext } from './slash-commands/controller-context.js';
import { formatChatStats, recordStreamStats } from './slash-commands/stats-command.js';
import { parseShellInput, shellToolName } from './slash-commands/shell-mode.js';
import { resourceText } from '../mcp/util.js';
import { refusePathProblems } from './input/path-problems.js';
import { expandTypedCommand, findCommand } from '../custom-commands/run-custom-command.js';
import { switchSession } from '../core/session-switch.js';
import { todosSetBy } from '../core/session-todos.js';

/**
 * Connects the screen to the host: submissions become model turns, slash commands or passive calls;
 * stream and scheduler events become conversation items; Esc / Ctrl-C abort the running turn.
 */
export class Controller {
  runtime?: UiRuntime;
  client?: UiChatClient;
  /** Why there is no model client (no credentials): shown when the user sends a prompt. */
  noClientReason?: string;
  private running?: AbortController;
  /** A queued message is being submitted: new submissions join the queue behind it. */
  private draining = false;
  private readonly modes: ApprovalModeSwitch;
  /** Per-model and per-tool figures behind `/stats`. */
  readonly runStats = new RunStats();
  /** The model session (absent without credentials) and the recorder its history goes to. */
  session?: Session;
  recorder?: SessionRecorder;
  shellMode = false;
  /** Esc / Ctrl-C during a command's own work (`/compress`). */
  onCancel?: () => void;
  private readonly view: StreamView;
  private exitResolve?: (code: number) => void;
  readonly exited: Promise<number>;
  private readyResolve?: () => void;
  /** A submission waits for the servers to finish connecting: others queue behind it. */
  private waitingForServers = false;
  /** Settles when the runtime is attached or startup failed: early submissions wait for it. */
  readonly ready: Promise<void>;

  constructor(
    private readonly app: App,
    private readonly cwd: string,
  ) {
    this.exited = new Promise((r) => (this.exitResolve = r));
    this.ready = new Promise((r) => (this.readyResolve = r));
    this.view = new StreamView(app, this.runStats);
    this.modes = new ApprovalModeSwitch(app, () => this.runtime);
    app.handlers = {
      submit: (t) => void this.submit(t),
      cancel: () => this.cancel(),
      cycleApprovalMode: () => this.modes.cycle(),
      toggleYolo: () => this.modes.toggleYolo(),
      complete: (t, c) => this.complete(t, c),
      suggest: (t) => slashSuggestions(t, this.runtime),
      exit: () => this.exit(0),
    };
  }

  attachRuntime(rt: UiRuntime): void {
    this.runtime = rt;
    rt.scheduler.on('event', (ev: SchedulerEvent) => this.onSchedulerEvent(ev));
    const refresh = () => this.refreshServers();
    rt.manager.on('status', refresh);
    rt.manager.on('tools_changed', refresh);
    // `/mcp disable|enable NAME` changes the registry, not the servers: the footer follows it too.
    rt.registry.on('changed', refresh);
    this.modes.attach(rt);
    this.refreshServers();
    this.readyResolve?.();
  }

  /** Startup failed: waiting submissions proceed (and report what is missing). */
  startupFailed(): void {
    this.readyResolve?.();
  }

  refreshServers(): void {
    const all = this.runtime?.manager.states() ?? [];
    const on = (alias: string) => this.runtime?.registry.isServerEnabled(alias) ?? true;
    const states = all.filter((s) => on(s.alias));
    this.app.status.serversTotal = all.length;
    this.app.status.serversDisabled = all.length - states.length;
    this.app.status.serversReady = states.filter((s) => s.status === 'connected').length;
    this.app.status.serversFailed = states.filter((s) => s.status === 'failed').length;
    this.app.status.serversIdle = states.filter((s) => s.status === 'idle').length;
    this.app.requestRender();
  }

  exit(code: number): void {
    this.running?.abort(new Error('The session is closing.'));
    this.exitResolve?.(code);
  }

  cancel(): void {
    this.onCancel?.();
    // A cancelled turn does not send what was queued behind it: it goes back to the input.
    this.app.takeBackQueued();
    if (!this.running) return;
    this.running.abort(new Error('user pressed Esc'));
    this.app.dialog.cancelAll();
    this.app.forms.cancelAll();
  }

  private complete(text: string, cursor: number): { text: string; cursor: number; hint?: string } | undefined {
    return completeInput(text, cursor, this.runtime, this.cwd, this.app.palette.gray);
  }

  print(text: string): void {
    this.app.conv.add({ kind: 'info', text });
    this.app.requestRender();
  }

  error(text: string): void {
    this.app.conv.add({ kind: 'error', text });
    this.app.requestRender();
  }

  /**
   * Holds a submission while servers are still connecting, as Gemini CLI does ("Waiting for MCP servers to
   * initialize… prompts will be queued"): a request sent then would silently lack their tools. Typed
   * meanwhile, messages queue as during a turn. The manager bounds the wait for servers not our own.
   */
  private async untilServersReady(): Promise<void> {
    const rt = this.runtime;
    if (!rt?.manager.states().some((s) => s.status === 'connecting')) return;
    this.print(
      this.app.palette.gray('Waiting for MCP servers to initialize… your message goes out when they are ready.'),
    );
    this.waitingForServers = true;
    this.app.setBusy('Waiting for MCP servers');
    try {
      await rt.manager.whenReady();
    } finally {
      this.waitingForServers = false;
      this.app.setBusy(undefined);
    }
  }

  async submit(text: string, fromQueue = false): Promise<void> {
    const p = this.app.palette;
    if (this.running || this.waitingForServers || (this.draining && !fromQueue)) {
      // As in Gemini CLI: typed during a turn, sent when it ends.
      this.app.queued.push(text);
      this.app.requestRender();
      return;
    }
    if (!this.runtime) {
      this.app.setBusy('Starting');
      await this.ready;
      this.app.setBusy(undefined);
    }
    const shell = parseShellInput(text, this.shellMode);
    if (shell.kind === 'toggle') return this.toggleShellMode();
    // A prompt or a command must not go out before the servers whose tools it may need are up.
    const builtinSlash = text.startsWith('/') && !(this.runtime && findCommand(text, this.runtime.commands.commands));
    if (!builtinSlash) await this.untilServersReady();
    if (shell.kind === 'command') return this.runShell(text, shell.command);
    const custom = text.startsWith('/') && this.runtime ? findCommand(text, this.runtime.commands.commands) : undefined;
    if (custom && this.runtime) {
      const rt = this.runtime;
      this.app.conv.add({ kind: 'user', text });
      this.recorder?.noteTyped(text);
      // `@{…}` and `!{…}` run as client-initiated calls: their cards show, a shell command asks as any does.
      return this.sendToModel(text, async (signal, promptId) => {
        const r = await expandTypedCommand(rt, rt.commands.commands, text, {
          signal,
          promptId,
          warn: (m) => this.print(p.yellow(m)),
        });
        if (r?.ok) return r.parts;
        if (r) this.error(r.message);
        return undefined;
      });
    }
    const slash = text.startsWith('/') ? parseSlash(text) : undefined;
    if (slash) {
      this.app.conv.add({ kind: 'user', text });
      if (await runChatCommand(slash, buildCommandContext(this, this.app, this.cwd))) return;
      const handled = await runSlash(slash, {
        runtime: this.runtime,
        palette: p,
        print: (t) => this.print(t),
        error: (t) => this.error(t),
        clear: () => this.clearConversation(),
        exit: () => this.exit(0),
        submitPrompt: (prompt) => void this.sendToModel(prompt),
        runTool: async (name, args) => void (await this.runPassive(name, args)),
        readMemory: (uri) => this.readMemory(uri),
      }).catch((err: unknown) => {
        this.error(`/${slash.name} failed: ${(err as Error).message}`);
        return true;
      });
      if (!handled) this.error(unknownCommandText(slash.name, Object.keys(completionTable(this.runtime))));
      return;
    }
    if (refusePathProblems(text, this.runtime, this.app.editor, (m) => this.error(m))) return;
    this.app.conv.add({ kind: 'user', text });
    await this.sendToModel(text);
  }

  /** `/clear`: a fresh conversation (the model forgets, a new session is recorded) on a fully repainted screen. */
  async clearConversation(): Promise<void> {
    const session = this.session;
    const dir = this.runtime?.projectTempDir;
    if (session && dir)
      this.recorder = (
        await switchSession(session, dir, { kind: 'clear', cwd: this.cwd }, (m) => this.error(m))
      ).recorder;
    this.app.conv.clear();
    this.app.setTodos(undefined);
    this.app.banner = undefined;
    // Blessed only redraws cells it thinks changed; a full reallocation leaves nothing of the old screen.
    this.app.screen.realloc();
    this.app.renderNow();
  }

  /**
   * After a turn: queued plain messages go out together as one message (as Gemini CLI sends them);
   * a queued command or shell line runs on its own, in order.
   */
  private drainQueue(): void {
    if (this.running || this.draining || !this.app.queued.length) return;
    const q = this.app.queued;
    const isCommand = (t: string) => /^\s*[/!]/.test(t) || this.shellMode;
    const n = isCommand(q[0]!) ? 1 : Math.max(1, q.findIndex(isCommand) < 0 ? q.length : q.findIndex(isCommand));
    const text = q.splice(0, n).join('\n\n');
    this.draining = true;
    this.app.requestRender();
    void this.submit(text, true).finally(() => {
      this.draining = false;
      this.drainQueue();
    });
  }

  private toggleShellMode(): void {
    this.shellMode = !this.shellMode;
    this.app.promptMarker = this.shellMode ? '! ' : '> ';
    this.app.flash(
      this.app.palette.yellow(this.shellMode ? 'Shell mode: lines run as commands (! to leave).' : 'Shell mode off.'),
    );
  }

  private async runShell(text: string, command: string): Promise<void> {
    this.app.conv.add({ kind: 'user', text: this.shellMode && !text.trim().startsWith('!') ? `! ${text}` : text });
    const tool = shellToolName(this.runtime?.registry.list() ?? []);
    if (!tool) return this.error('No shell tool is available (is the shell server running? see /mcp).');
    const call = await this.runPassive(tool, { command }, true);
    if (call?.response?.errorType === 'policy_denied') {
      // The policy's text is written for the model; the user gets what happened and what to do.
      const mode = this.runtime?.getApprovalMode();
      this.error(
        mode === 'plan'
          ? 'Plan mode is on: `!` commands do not run in plan mode (nothing changes while planning). Press Shift+Tab to switch mode.'
          : `Not run: a policy rule denies this command (${command}). See /policies or your policy files.`,
      );
    }
  }

  async runPassive(name: string, args: Record<string, unknown>, typedByUser = false): Promise<ToolCall | undefined> {
    const rt = this.runtime;
    if (!rt) {
      this.error(this.noClientReason ?? 'The host runtime is still starting; try again in a moment.');
      return undefined;
    }
    const ac = new AbortController();
    this.running = ac;
    this.app.setBusy(`Running ${name}`);
    try {
      const [call] = await rt.scheduler.schedule(
        [
          {
            callId: `passive-${randomUUID().slice(0, 8)}`,
            name,
            args,
            isClientInitiated: true,
            typedByUser,
            promptId: `passive-${Date.now()}`,
          },
        ],
        ac.signal,
      );
      if (call?.response?.errorType === 'policy_denied' && typedByUser) this.app.conv.removeTool(call.request.callId);
      else if (call) this.app.conv.upsertTool(call);
      return call;
    } catch (err) {
      this.error(`${name} failed: ${(err as Error).message}`);
    } finally {
      this.running = undefined;
      setImmediate(() => this.drainQueue());
      this.app.setBusy(undefined);
    }
  }

  private async readMemory(uri = 'gemini-memory://context'): Promise<string | undefined> {
    const rt = this.runtime;
    const alias = rt?.manager.states().find((s) => s.alias === 'memory' && s.status !== 'failed')?.alias;
    if (!rt || !alias) return undefined;
    const res = await rt.manager.readResource(alias, uri);
    return resourceText(res);
  }

  /**
   * `@server__tool(...)` passive calls run first and only show their cards; `@path` references are
   * read through the filesystem server; what is left goes to the model (host core's at-commands).
   * `prepare` builds the parts instead (a custom command's expansion); undefined sends nothing.
   */
  async sendToModel(
    text: string,
    prepare?: (signal: AbortSignal, promptId: string) => Promise<Part[] | undefined>,
  ): Promise<void> {
    const p = this.app.palette;
    const rt = this.runtime;
    if (!rt) {
      this.error(this.noClientReason ?? 'The host runtime is still starting; try again in a moment.');
      return undefined;
    }
    const ac = new AbortController();
    this.running = ac;
    this.app.setBusy('Working');
    const promptId = randomUUID().slice(0, 12);
    try {
      let parts: Part[] = [{ text }];
      if (prepare) {
        const prepared = await prepare(ac.signal, promptId);
        if (!prepared || ac.signal.aborted) return;
        parts = prepared;
      } else if (/(^|\s)@\S/.test(text)) {
        const res = await processAtCommands(text, {
          runtime: rt as unknown as Parameters<typeof processAtCommands>[1]['runtime'],
          signal: ac.signal,
          promptId,
          onWarning: (m) => this.print(p.yellow(m)),
        });
        if (res.error) this.error(res.error);
        if (res.calls.length === 0 && res.display.trim()) this.error(res.display);
        if (res.skipModel || ac.signal.aborted) return;
        parts = res.parts;
      }
      if (!this.client)
        return this.error(this.noClientReason ?? 'The model client is still starting; try again in a moment.');
      this.app.setBusy('Thinking');
      for await (const ev of this.client.sendMessageStream(parts, ac.signal, promptId)) {
        recordStreamStats(this.runStats, ev, this.session?.client.model ?? this.app.status.model);
        this.view.onEvent(ev);
      }
    } catch (err) {
      if (ac.signal.aborted) this.print(p.gray('Request cancelled.'));
      else this.error(`Error: ${(err as Error).message}`);
    } finally {
      this.view.finishModelItem();
      this.running = undefined;
      setImmediate(() => this.drainQueue());
      this.app.setBusy(undefined);
    }
  }

  private onSchedulerEvent(ev: SchedulerEvent): void {
    this.modes.sync();
    if (ev.type === 'tool_call_update') {
      // A subagent's call is a line of its invoke_agent card, not a card of its own.
      if (ev.call.request.parentCallId) return;
      this.app.conv.upsertTool(ev.call);
      const todos = todosSetBy(ev.call);
      if (todos) this.app.setTodos(todos);
      if (ev.call.status === 'executing') this.app.setBusy(`Running ${ev.call.request.name}`);
      this.app.requestRender();
    } else if (ev.type === 'all_complete') {
      for (const c of ev.calls) {
        this.runStats.tool(c);
      }
      if (this.running) this.app.setBusy('Thinking');
    }
  }

  formatStats(section?: string): string {
    return formatChatStats(buildCommandContext(this, this.app, this.cwd), section);
  }
}
