import { gitBranch } from './git-branch.js';
import type { CliArgs } from '../cli-args.js';
import { unparsableSettingsFiles } from '../config/settings-precheck.js';
import { EXIT, FatalError } from '../errors.js';
import type { ApprovalMode } from '../scheduler/types.js';
import { App } from './views/app.js';
import type { UiRuntime } from './backend-types.js';
import { Controller } from './controller.js';
import { StartupLine } from './views/startup-line.js';
import { applyUiSettings } from './ui-settings.js';
import type { Settings } from '../config/settings-schema.js';
import type { Item } from './views/conversation.js';
import { InputHistory } from './input/history-store.js';
import { preloadTextWidth } from './text/text-width.js';
import { checkResumeRef, controllerSummary } from './views/exit-summary.js';
import { historyItems } from './views/history-view.js';
import { latestTodos } from '../core/session-todos.js';
import type { Session } from '../core/session.js';
import { DEFAULT_MODEL, resolveModelAlias } from '../core/models.js';
import { safeBlock, safeText } from '../safe-text.js';
import type { HookMessage } from '../hooks/hook-message.js';
import { showHookMessage } from './views/hook-message-view.js';
import { interactiveShellEnabled, startInteractiveShell } from './interactive-shell.js';

/** The model session goes to the controller; a resumed session's conversation is shown before anything new. */
function attachSession(app: App, controller: Controller, session: Session): void {
  controller.client = session.client;
  controller.session = session;
  controller.recorder = session.recorder;
  app.status.model = session.model;
  const loaded = session.resumed;
  if (!loaded) return;
  for (const item of historyItems(loaded.transcript)) app.conv.add(item);
  app.setTodos(latestTodos(loaded.transcript));
  app.conv.add({
    kind: 'info',
    text: app.palette.gray(`Resumed session ${loaded.index}: ${safeText(loaded.title)} [${loaded.id}]`),
  });
  app.requestRender();
}

export interface RunInteractiveOptions {
  cwd: string;
  model?: string;
  approvalMode?: ApprovalMode;
  env?: NodeJS.ProcessEnv;
  debug?: boolean;
  includeDirectories?: string[];
  allowedMcpServerNames?: string[];
  allowedTools?: string[];
  fakeResponses?: string;
  fakeResponsesNonStrict?: boolean;
  recordResponses?: string;
  /** Submitted as the first message once the client is ready. */
  initialPrompt?: string;
  /** The parsed command line, as `gemini-mcp` hands it over. */
  args?: CliArgs;
  /** `--resume`: a recorded session to continue. */
  resume?: string;
  /** `--checkpointing`. */
  checkpointing?: boolean;
}

/** Shown when a project has no input history yet. */
const FIRST_RUN_TIP =
  'Tip: ask anything, or /help for commands · @path/to/file adds a file · Shift+Tab changes how much is approved for you · Ctrl-C twice exits';

/** Benchmark hook: when set, the UI appends JSON lines (input-ready, chunk, key, render) to this file. */
export const TRACE_ENV = 'GEMINI_MCP_UI_TRACE';

function normalise(o: RunInteractiveOptions): RunInteractiveOptions {
  const a = o.args;
  if (!a) return o;
  return {
    ...o,
    model: o.model ?? a.model,
    approvalMode: o.approvalMode ?? a.approvalMode,
    debug: o.debug ?? a.debug,
    includeDirectories: o.includeDirectories ?? a.includeDirectories,
    allowedMcpServerNames: o.allowedMcpServerNames ?? a.allowedMcpServerNames,
    allowedTools: o.allowedTools ?? a.allowedTools,
    fakeResponses: o.fakeResponses ?? a.fakeResponses,
    fakeResponsesNonStrict: o.fakeResponsesNonStrict ?? a.fakeResponsesNonStrict,
    recordResponses: o.recordResponses ?? a.recordResponses,
    initialPrompt: o.initialPrompt ?? a.promptInteractive ?? a.positional,
    resume: o.resume ?? a.resume,
    checkpointing: o.checkpointing ?? (a.checkpointing || undefined),
  };
}

/**
 * The interactive chat. The screen comes first (input is accepted at once); the markdown renderer,
 * settings, servers and the model client load behind it. Resolves with the exit code.
 */
export async function runInteractive(options: RunInteractiveOptions): Promise<number> {
  const opts = normalise(options);
  const env = opts.env ?? process.env;
  if (opts.resume !== undefined) checkResumeRef(opts.cwd, env, opts.resume);
  await failOnUnparsableSettings(opts, env);
  const app = new App({
    env,
    traceFile: env[TRACE_ENV] || undefined,
    status: {
      model: resolveModelAlias(opts.model ?? env.GEMINI_MODEL ?? DEFAULT_MODEL),
      approvalMode: opts.approvalMode ?? 'default',
      serversReady: 0,
      serversTotal: 0,
      serversFailed: 0,
      tokens: 0,
      cwd: opts.cwd,
      home: env.HOME,
      branch: gitBranch(opts.cwd),
    },
  });
  // History is per project: loaded at once so Up works while the servers are still starting.
  app.history = new InputHistory(InputHistory.defaultFile(opts.cwd, env)).load();
  const tip: Item | undefined =
    app.history.list().length === 0 && !opts.initialPrompt
      ? { kind: 'info', text: app.palette.gray(FIRST_RUN_TIP) }
      : undefined;
  if (tip) app.conv.add(tip);
  const controller = new Controller(app, opts.cwd);
  const closeRef: { close?: () => Promise<void> } = {};
  let fatal: FatalError | undefined;
  const onSignal = () => controller.exit(130);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  void preloadTextWidth();
  void import('./text/markdown.js')
    .then(({ createMarkdownRenderer }) => app.setMarkdown(createMarkdownRenderer(app.palette)))
    .catch(() => undefined);

  void startSession(app, controller, opts, env, closeRef, tip).catch((err: unknown) => {
    // Settings that cannot be used leave nothing to chat with: close the screen and say why (exit 52).
    if (err instanceof FatalError && err.exitCode === EXIT.config) {
      fatal = err;
      controller.exit(err.exitCode);
      return;
    }
    app.banner = app.palette.red(`Startup failed: ${(err as Error).message}`);
    controller.noClientReason = `Startup failed: ${(err as Error).message}`;
    controller.startupFailed();
    app.requestRender();
  });

  const code = await controller.exited;
  process.off('SIGTERM', onSignal);
  process.off('SIGHUP', onSignal);
  app.destroy();
  if (fatal) {
    process.stderr.write(`gemini-mcp: ${fatal.message}\n`);
    await closeRef.close?.().catch(() => undefined);
    return code;
  }
  process.stdout.write(controllerSummary(controller));
  const close = closeRef.close;
  if (close) {
    // Servers get a bounded time to shut down; the terminal is already restored.
    await Promise.race([close().catch(() => undefined), new Promise((r) => setTimeout(r, 3000).unref())]);
  }
  return code;
}

/**
 * The first time a folder with workspace settings (or a workspace `.env`) is opened, ask before any of it
 * runs; the answer is saved and the session then loads the settings as answered.
 */
async function settleFolderTrust(app: App, opts: RunInteractiveOptions, env: NodeJS.ProcessEnv): Promise<boolean> {
  const { loadSettings } = await import('../load-settings.js');
  let loaded: ReturnType<typeof loadSettings> | undefined;
  try {
    loaded = loadSettings({ cwd: opts.cwd, env, skipTrust: opts.args?.skipTrust });
  } catch {
    return false; // the session reports bad settings itself
  }
  if (loaded.trust.source !== 'undecided') return false;
  const { askFolderTrust } = await import('./views/trust-prompt.js');
  const level = await askFolderTrust(app, opts.cwd, loaded.skipped);
  if (!level) return false;
  const { saveTrust } = await import('../config/trust-save.js');
  try {
    const file = saveTrust(opts.cwd, level, env);
    app.conv.add({ kind: 'info', text: `Saved: ${level === 'DO_NOT_TRUST' ? 'not trusted' : 'trusted'} (${file}).` });
    return false;
  } catch (err) {
    // The answer still holds for this session.
    app.conv.add({
      kind: 'error',
      text: `Could not save the answer (it holds for this session only): ${(err as Error).message}`,
    });
    return level !== 'DO_NOT_TRUST';
  }
}

/**
 * A settings file that does not parse ends the run before the screen opens, naming file, line and
 * column. The check is syntax only (no schema load, so start-up stays fast); whether the file is fatal
 * is the loader's call (an untrusted workspace's file is skipped instead).
 */
async function failOnUnparsableSettings(opts: RunInteractiveOptions, env: NodeJS.ProcessEnv): Promise<void> {
  if (unparsableSettingsFiles({ cwd: opts.cwd, env }).length === 0) return;
  const { loadSettings } = await import('../load-settings.js');
  loadSettings({ cwd: opts.cwd, env, skipTrust: opts.args?.skipTrust });
}

/** Settings, servers and the model client, behind the open screen; the runtime is attached when ready. */
async function startSession(
  app: App,
  controller: Controller,
  opts: RunInteractiveOptions,
  env: NodeJS.ProcessEnv,
  closeRef: { close?: () => Promise<void> },
  tip?: Item,
): Promise<void> {
  const trustedThisRun = await settleFolderTrust(app, opts, env);
  const { createSession, AuthError } = await import('../core/session.js');
  const base = {
    cwd: opts.cwd,
    env,
    interactive: true,
    confirmer: app.dialog,
    asker: app.forms,
    debug: opts.debug,
    log: app.debugLog,
    onHookMessage: (m: HookMessage) => showHookMessage(app, m),
    approvalMode: opts.approvalMode,
    includeDirectories: opts.includeDirectories,
    allowedMcpServerNames: opts.allowedMcpServerNames,
    allowedTools: opts.allowedTools,
    policyFiles: opts.args?.policyFiles,
    adminPolicyFiles: opts.args?.adminPolicyFiles,
    skipTrust: opts.args?.skipTrust || trustedThisRun,
    sandbox: opts.args?.sandbox,
    sandboxAllowNet: opts.args?.sandboxAllowNet,
    extensions: opts.args?.extensions,
  };
  let runtime: UiRuntime;
  let merged: Settings;
  try {
    const session = await createSession({
      ...base,
      model: opts.model,
      fakeResponses: opts.fakeResponses,
      fakeResponsesNonStrict: opts.fakeResponsesNonStrict,
      recordResponses: opts.recordResponses,
      resume: opts.resume,
      sessionId: opts.args?.sessionId,
      checkpointing: opts.checkpointing,
    });
    closeRef.close = session.close;
    runtime = session.runtime;
    merged = session.runtime.settings.merged;
    // Before the resumed conversation is drawn, so it is drawn in the theme chosen.
    applyUiSettings(app, session.runtime.settings.merged, tip);
    attachSession(app, controller, session);
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    const { createHostRuntime } = await import('../core/runtime.js');
    const rt = await createHostRuntime(base);
    closeRef.close = () => rt.close();
    runtime = rt;
    merged = rt.settings.merged;
    applyUiSettings(app, rt.settings.merged, tip);
    controller.noClientReason = err.message;
    app.banner = app.palette.yellow(`⚠ ${err.message}\n  Slash commands and @server__tool({...}) calls still work.`);
  }
  controller.attachRuntime(runtime);
  if (interactiveShellEnabled(merged)) startInteractiveShell(app, runtime);
  app.status.sandboxed = runtime.sandbox.shell;
  new StartupLine(app, runtime).start();
  for (const notice of runtime.notices) app.conv.add({ kind: 'info', text: app.palette.yellow(safeBlock(notice)) });
  if (runtime.extensions.some((e) => e.installMetadata?.autoUpdate)) void autoUpdate(app, opts.cwd, env);
  app.projectTempDir = runtime.projectTempDir;
  const historyFile = InputHistory.fileFor(runtime.projectTempDir);
  if (app.history.file !== historyFile) app.history = new InputHistory(historyFile).load();
  if (opts.initialPrompt?.trim()) void controller.submit(opts.initialPrompt);
}

/** `--auto-update` extensions are brought up to date in the background; the user is told what changed. */
async function autoUpdate(app: App, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const { autoUpdateExtensions } = await import('../extensions/auto-update.js');
  const lines = await autoUpdateExtensions({
    cwd,
    env,
    log: () => {},
    // Nobody is asked in the background: an update that runs or adds something the user has not agreed to
    // waits for `gemini-mcp extensions update` (the chat says so); a new setting stays unset.
    confirm: async () => false,
    askSetting: async () => undefined,
  }).catch((err: unknown) => [`Extension auto-update failed: ${(err as Error).message}`]);
  for (const l of lines) app.conv.add({ kind: 'info', text: app.palette.yellow(safeBlock(l)) });
  if (lines.length) app.requestRender();
}
