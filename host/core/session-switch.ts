import type { GeminiChat } from './gemini-chat.js';
import { chatsDir, SessionRecorder } from '../sessions/recorder.js';
import { loadSession, type LoadedSession } from '../sessions/store.js';

/**
 * Continues a recorded session inside a running chat: its history replaces the current one and later
 * records go to its file. The session left behind keeps everything it recorded.
 */
export function switchToSession(
  chat: GeminiChat,
  projectTempDir: string,
  ref: string,
  onError?: (m: string) => void,
): { recorder: SessionRecorder; loaded: LoadedSession } {
  const loaded = loadSession(projectTempDir, ref);
  (chat.listener as { close?: () => void } | undefined)?.close?.();
  chat.listener = undefined;
  chat.setHistory(loaded.history);
  const recorder = new SessionRecorder(
    chatsDir(projectTempDir),
    { cwd: loaded.header.cwd, model: chat.model, kind: 'chat' },
    { id: loaded.id, file: loaded.file },
    onError,
  );
  chat.listener = recorder;
  return { recorder, loaded };
}

/**
 * `/clear`: the chat starts a fresh conversation recorded as a new session (as Gemini CLI does); the
 * session left behind keeps everything it recorded and can still be resumed.
 */
export function startNewSession(
  chat: GeminiChat,
  projectTempDir: string,
  cwd: string,
  onError?: (m: string) => void,
): SessionRecorder {
  (chat.listener as { close?: () => void } | undefined)?.close?.();
  chat.listener = undefined;
  chat.setHistory([], 'clear');
  const recorder = new SessionRecorder(
    chatsDir(projectTempDir),
    { cwd, model: chat.model, kind: 'chat' },
    undefined,
    onError,
  );
  chat.listener = recorder;
  return recorder;
}
