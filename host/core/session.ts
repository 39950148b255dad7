import { randomUUID } from 'node:crypto';
import type { LoadedSettings } from '../load-settings.js';
import type { HostRuntime, HostRuntimeOptions } from './runtime.js';
import { GeminiClient } from './client.js';
import {
  AuthError,
  createGenAiContentGenerator,
  resolveAuth,
  resolveModel,
  type AuthConfig,
  type ContentGenerator,
} from './content-generator.js';
import { DEFAULT_RETRY, type RetryConfig } from './gemini-chat.js';
import { resolveModelAlias } from './models.js';
import { ensureProjectTempDir } from '../config/paths.js';
import { chatsDir, SessionRecorder } from '../sessions/recorder.js';
import { GEMINI_CLI_RESUME } from '../sessions/gemini-cli-sessions.js';
import { skippedRecordsNotice } from '../sessions/session-list-text.js';
import { GeminiCliMirror } from '../sessions/gemini-cli-mirror.js';
import { readSystemMd, systemMdPath, writeSystemMdPath } from './system-md.js';
import { hasSession, loadSession, SessionNotFoundError, type LoadedSession } from '../sessions/store.js';
import { Checkpointer } from '../checkpoints/checkpointer.js';
import { enterPlanModeEntry, exitPlanModeEntry, PlanMode, plansFolderOf } from '../tools/plan-mode.js';
import { registerInvokeAgent } from './agent-tool.js';

export interface SessionOptions extends HostRuntimeOptions {
  /** `-m`. */
  model?: string;
  fakeResponses?: string;
  fakeResponsesNonStrict?: boolean;
  recordResponses?: string;
  /** `--resume`: `latest`, a number from `--list-sessions`, or a session id. */
  resume?: string;
  /**
   * An editor's load: `resume` is the id of a session of ours, continued under that id even where Gemini
   * CLI has gone on with its copy (which a list would show instead).
   */
  resumeOurs?: boolean;
  /** `--session-id`: the new session's id; one already recorded in this project is refused. */
  sessionId?: string;
  /** Record the run in the project's session store (default true). */
  recordSession?: boolean;
  /** `--checkpointing` (else `general.checkpointing.enabled`). */
  checkpointing?: boolean;
}

export interface Session {
  runtime: HostRuntime;
  client: GeminiClient;
  generator: ContentGenerator;
  model: string;
  /** The recorded session's id (a resumed session keeps its id). */
  sessionId: string;
  recorder?: SessionRecorder;
  /** Set when the run continues an earlier session. */
  resumed?: LoadedSession;
  /** Set when checkpointing is on. */
  checkpointer?: Checkpointer;
  close(): Promise<void>;
}

/**
 * Retry delays: settings give the attempt bound; `GEMINI_MCP_RETRY_DELAY_MS` scales the initial delays so
 * scripted tests do not wait 5 s per injected error.
 */
export function retryConfig(settings: LoadedSettings['merged'], env: NodeJS.ProcessEnv): RetryConfig {
  const cfg = { ...DEFAULT_RETRY };
  const max = settings.general?.maxAttempts;
  if (typeof max === 'number' && max >= 1) cfg.maxAttempts = Math.min(10, Math.floor(max));
  if (settings.general?.retryFetchErrors === false) cfg.retryFetchErrors = false;
  const base = Number(env.GEMINI_MCP_RETRY_DELAY_MS);
  if (env.GEMINI_MCP_RETRY_DELAY_MS && Number.isFinite(base) && base >= 0) {
    cfg.initialDelayMs = base;
    cfg.midStreamDelayMs = base;
    cfg.maxDelayMs = Math.max(base, base * 8);
  }
  return cfg;
}

async function createGenerator(
  opts: SessionOptions,
  auth: AuthConfig | undefined,
  model: string,
): Promise<ContentGenerator> {
  if (!auth) {
    // Replay replaces the generator before any auth or network setup.
    const { FakeContentGenerator } = await import('./fake-content-generator.js');
    return FakeContentGenerator.fromFile(opts.fakeResponses!, !opts.fakeResponsesNonStrict);
  }
  const { VERSION } = await import('../../protocol/version.js');
  let gen = await createGenAiContentGenerator(
    auth,
    `GeminiMcpCli/${VERSION}/${model} (${process.platform}; ${process.arch})`,
  );
  if (opts.recordResponses) {
    const { RecordingContentGenerator } = await import('./recording-content-generator.js');
    gen = new RecordingContentGenerator(gen, opts.recordResponses);
  }
  return gen;
}

/** `--checkpointing` or `general.checkpointing.enabled`: file snapshots before a turn's edits. */
function checkpointerFor(
  opts: SessionOptions,
  settings: LoadedSettings,
  runtime: HostRuntime,
  client: GeminiClient,
  projectTempDir: string,
): Checkpointer | undefined {
  if ((opts.checkpointing ?? settings.merged.general?.checkpointing?.enabled) !== true) return undefined;
  return new Checkpointer({
    projectRoot: runtime.roots[0] ?? opts.cwd,
    projectTempDir,
    lookup: (name) => runtime.registry.get(name),
    sessionId: () => (client.chat.listener as SessionRecorder | undefined)?.id,
    warn: (m) => opts.log?.warn(m),
  });
}

/**
 * The session's record in the project's store (none with `recordSession: false`); a resumed one goes on in
 * its file, except Gemini CLI's, which is only read: its history starts a new session of ours.
 */
function recorderFor(
  opts: SessionOptions,
  projectTempDir: string,
  model: string,
  resumed: LoadedSession | undefined,
): SessionRecorder | undefined {
  if (opts.recordSession === false) return undefined;
  const recorder = new SessionRecorder(
    chatsDir(projectTempDir),
    { cwd: opts.cwd, model, kind: opts.interactive ? 'chat' : 'headless' },
    resumed && !resumed.geminiCli ? { id: resumed.id, file: resumed.file } : undefined,
    (m) => opts.log?.warn(m),
    opts.sessionId,
  );
  const earlier = resumed && !resumed.geminiCli ? resumed.history : [];
  recorder.copyTo(() => GeminiCliMirror.open(projectTempDir, recorder.id, model, earlier, (m) => opts.log?.warn(m)));
  if (resumed?.geminiCli) recorder.replaced(resumed.history, GEMINI_CLI_RESUME);
  return recorder;
}

/**
 * The session's model loop, and what else talks to its model: subagents (their `inherit` follows the
 * model the session uses at the time) and servers' sampling requests (the model `/model` picks).
 */
function clientFor(
  opts: SessionOptions,
  settings: LoadedSettings,
  runtime: HostRuntime,
  generator: ContentGenerator,
  requested: string,
  systemMd: string | undefined,
): GeminiClient {
  const retry = retryConfig(settings.merged, settings.env);
  const client = new GeminiClient({
    runtime,
    generator,
    model: requested,
    maxSessionTurns: settings.merged.model?.maxSessionTurns,
    skipNextSpeakerCheck: settings.merged.model?.skipNextSpeakerCheck ?? true,
    disableLoopDetection: settings.merged.model?.disableLoopDetection === true,
    compressionThreshold: settings.merged.model?.compressionThreshold,
    systemMd,
    writeSystemMd: writeSystemMdPath(settings.env, opts.cwd, systemMdPath(settings.env, opts.cwd)),
    retry,
    log: opts.log ? (m) => opts.log!.debug(m) : undefined,
  });
  registerInvokeAgent({
    runtime,
    generator,
    sessionModel: () => client.model,
    retry,
    onUsage: (value) => client.report({ type: 'usage', value }),
  });
  runtime.clientRequests.setModel(generator, () => client.model);
  return client;
}

/**
 * Settings → credentials → runtime (servers start, not awaited) → generator → client.
 */
export async function createSession(opts: SessionOptions): Promise<Session> {
  // A caller may hand in settings it already adjusted (the ACP agent adds the editor's MCP servers).
  const settings =
    opts.settings ??
    (await import('../load-settings.js')).loadSettings({
      cwd: opts.cwd,
      homeDir: opts.homeDir,
      env: opts.env,
      skipTrust: opts.skipTrust,
      extensions: opts.extensions,
    });
  // The `.env` file's variables (credentials, model) count like the environment's own.
  const env = settings.env;
  const requested = resolveModel(opts.model, env, settings.merged.model?.name);
  const model = resolveModelAlias(requested);
  // Credentials are checked (cheaply, from the environment) before any server is spawned.
  const auth = opts.fakeResponses ? undefined : resolveAuth(env, settings.merged.security?.auth?.selectedType);
  const projectTempDir = opts.projectTempDir ?? ensureProjectTempDir(opts.cwd, env, opts.homeDir);
  // A missing GEMINI_SYSTEM_MD file and a bad --resume reference fail before any server starts.
  const systemMd = readSystemMd(env, opts.cwd);
  const resumed = opts.resume !== undefined ? loadSession(projectTempDir, opts.resume, opts.resumeOurs) : undefined;
  if (opts.sessionId && hasSession(projectTempDir, opts.sessionId))
    throw new SessionNotFoundError(
      `Session id "${opts.sessionId}" is already in use in this project: --resume ${opts.sessionId} continues it.`,
    );
  const { createHostRuntime } = await import('./runtime.js');
  const runtime = await createHostRuntime({ ...opts, settings, projectTempDir });
  let generator: ContentGenerator;
  try {
    generator = await createGenerator(opts, auth, model);
  } catch (err) {
    await runtime.close();
    throw err;
  }
  const client = clientFor(opts, settings, runtime, generator, requested, systemMd);
  if (resumed) {
    client.chat.adoptHistory(resumed.history); // no recorder yet: the file already holds it
    const notice = skippedRecordsNotice(resumed);
    if (notice) runtime.notices.push(notice);
  }
  const recorder = recorderFor(opts, projectTempDir, model, resumed);
  client.chat.listener = recorder;
  const checkpointer = checkpointerFor(opts, settings, runtime, client, projectTempDir);
  client.checkpointer = checkpointer;
  const sessionId = recorder?.id ?? resumed?.id ?? randomUUID();
  runtime.hooks.session = {
    id: sessionId,
    transcriptPath: recorder?.file ?? '',
    plansDir: plansFolderOf(projectTempDir, sessionId),
  };
  // `/resume` moves the chat to another session's recorder, and its plans folder with it.
  const planMode = offerPlanMode(
    runtime,
    client,
    opts.cwd,
    () => (client.chat.listener as SessionRecorder | undefined)?.id ?? sessionId,
  );
  const source = resumed ? 'resume' : 'startup';
  if (runtime.hooks.has('SessionStart')) {
    const started = await runtime.hooks.fire('SessionStart', { source }, { trigger: source });
    if (started.context) client.startContext = started.context;
  }
  return {
    runtime,
    client,
    generator,
    model,
    sessionId,
    recorder,
    resumed,
    checkpointer,
    close: async () => {
      // Awaited (Gemini CLI does not wait): the hook gets to run before the process ends, bounded by its timeout.
      if (runtime.hooks.has('SessionEnd'))
        await runtime.hooks.fire('SessionEnd', { reason: 'exit' }, { trigger: 'exit' }).catch(() => undefined);
      // `/resume` may have moved the chat to another session's recorder.
      for (const r of new Set([recorder, client.chat.listener as SessionRecorder | undefined])) r?.close();
      planMode.dispose();
      client.dispose();
      await runtime.close();
    },
  };
}

export { AuthError };

/**
 * enter_plan_mode / exit_plan_mode for a session: plans go to `<project temp>/<session id>/plans`, the one
 * folder policy lets plan mode write in; the approval is asked through the scheduler's dialog queue.
 */
function offerPlanMode(runtime: HostRuntime, client: GeminiClient, cwd: string, sessionId: () => string): PlanMode {
  const { policy, registry, scheduler } = runtime;
  const planMode = new PlanMode(
    policy,
    () => plansFolderOf(runtime.projectTempDir, sessionId()),
    runtime.roots[0] ?? cwd,
    (callId, detail, message, signal) => scheduler.approvals.askInCall(callId, detail, message, signal),
    (path) => {
      client.approvedPlan = path;
    },
  );
  policy.setPlansFolder(planMode.plansFolder);
  registry.addHostTool(enterPlanModeEntry(), (args) => planMode.enter(args));
  registry.addHostTool(exitPlanModeEntry(), (args, ctx) => planMode.exit(args, ctx));
  return planMode;
}

/**
 * Gives a runtime without a chat (`tools call`) the configured model for servers' sampling, under the same
 * approval rules as `-p` (trusted servers only, headless). The SDK is loaded only if a server asks.
 * Without credentials nothing is attached, and a sampling request is told there is no model.
 */
export function attachSamplingModel(runtime: HostRuntime, requested?: string): void {
  const env = runtime.settings.env;
  let auth: AuthConfig;
  try {
    auth = resolveAuth(env, runtime.settings.merged.security?.auth?.selectedType);
  } catch (err) {
    if (err instanceof AuthError) return;
    throw err;
  }
  const model = resolveModelAlias(resolveModel(requested, env, runtime.settings.merged.model?.name));
  let gen: Promise<ContentGenerator> | undefined;
  runtime.clientRequests.setModel(
    {
      generateContent: async (req) => {
        gen ??= createGenerator({ cwd: runtime.roots[0] ?? process.cwd(), interactive: false }, auth, model);
        return (await gen).generateContent(req);
      },
    },
    () => model,
  );
}
