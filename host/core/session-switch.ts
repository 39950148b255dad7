import { plansFolderOf } from '../tools/plan-mode.js';
import type { Session } from './session.js';
import { chatsDir, SessionRecorder } from '../sessions/recorder.js';
import { GEMINI_CLI_RESUME } from '../sessions/gemini-cli-sessions.js';
import { GeminiCliMirror } from '../sessions/gemini-cli-mirror.js';
import { loadSession, type LoadedSession } from '../sessions/store.js';

/** Where the chat goes: a fresh conversation (`/clear`), or a recorded session it continues (`/resume`). */
export type SessionTarget = { kind: 'clear'; cwd: string } | { kind: 'resume'; ref: string };

type SwitchableSession = Pick<Session, 'runtime' | 'client' | 'sessionId'>;

/**
 * Moves a running chat to another session: `/clear` starts a fresh conversation recorded as a new session,
 * `/resume` continues a recorded one (its history replaces the current one, later records go to its file).
 * The session left behind keeps everything it recorded. As in Gemini CLI, `/clear` fires SessionEnd (reason
 * `clear`) for the session left, and both fire SessionStart (source `clear` or `resume`) for the one entered,
 * whose context goes with the next message; hooks' payloads name the new session from here on.
 */
export async function switchSession(
  session: SwitchableSession,
  projectTempDir: string,
  target: { kind: 'resume'; ref: string },
  onError?: (m: string) => void,
): Promise<{ recorder: SessionRecorder; loaded: LoadedSession }>;
export async function switchSession(
  session: SwitchableSession,
  projectTempDir: string,
  target: SessionTarget,
  onError?: (m: string) => void,
): Promise<{ recorder: SessionRecorder; loaded?: LoadedSession }>;
export async function switchSession(
  session: SwitchableSession,
  projectTempDir: string,
  target: SessionTarget,
  onError?: (m: string) => void,
): Promise<{ recorder: SessionRecorder; loaded?: LoadedSession }> {
  // A bad reference fails here, before anything of the current session is touched.
  const loaded = target.kind === 'resume' ? loadSession(projectTempDir, target.ref) : undefined;
  const { client, runtime } = session;
  const hooks = runtime.hooks;
  // Gemini CLI ends the session on /clear only; its /resume just starts the resumed one.
  if (target.kind === 'clear' && hooks.has('SessionEnd'))
    await hooks.fire('SessionEnd', { reason: 'clear' }, { trigger: 'clear' }).catch(() => undefined);
  const chat = client.chat;
  (chat.listener as { close?: () => void } | undefined)?.close?.();
  chat.listener = undefined;
  if (loaded) chat.setHistory(loaded.history);
  else chat.setHistory([], 'clear');
  const recorder = new SessionRecorder(
    chatsDir(projectTempDir),
    { cwd: loaded ? loaded.header.cwd : (target as { cwd: string }).cwd, model: chat.model, kind: 'chat' },
    loaded && !loaded.geminiCli ? { id: loaded.id, file: loaded.file } : undefined,
    onError,
  );
  const earlier = loaded && !loaded.geminiCli ? loaded.history : [];
  recorder.copyTo(() => GeminiCliMirror.open(projectTempDir, recorder.id, chat.model, earlier, onError));
  // Gemini CLI's file is only read: its history starts a new session of ours.
  if (loaded?.geminiCli) recorder.replaced(loaded.history, GEMINI_CLI_RESUME);
  chat.listener = recorder;
  session.sessionId = recorder.id;
  hooks.session = {
    id: recorder.id,
    transcriptPath: recorder.file,
    plansDir: plansFolderOf(projectTempDir, recorder.id),
  };
  client.startContext = undefined;
  const source = target.kind;
  if (hooks.has('SessionStart')) {
    const started = await hooks.fire('SessionStart', { source }, { trigger: source }).catch(() => undefined);
    if (started?.context) client.startContext = started.context;
  }
  return { recorder, ...(loaded ? { loaded } : {}) };
}
