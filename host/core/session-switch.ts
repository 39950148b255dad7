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
