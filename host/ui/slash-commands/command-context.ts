import type { Content } from '@google/genai';
import type { RunStats } from '../../core/run-stats.js';
import type { Session } from '../../core/session.js';
import type { SessionRecorder } from '../../sessions/recorder.js';
import type { SessionInfo } from '../../sessions/store.js';
import type { UiRuntime } from '../backend-types.js';
import type { DebugLog } from '../views/debug-log.js';
import type { Palette } from '../text/palette.js';
import type { SlashInput } from './slash-parse.js';

/** What the chat's session and information commands may use; the controller builds it per command. */
export interface ChatCommandContext {
  palette: Palette;
  cwd: string;
  print(text: string): void;
  error(text: string): void;
  /** The model session; absent without credentials (then only local commands work). */
  session?: Session;
  runtime?: UiRuntime;
  stats: RunStats;
  /** Host diagnostics and servers' log messages (`/debug`, F12). */
  debugLog: DebugLog;
  startedAt: number;
  /** Replaces the conversation view with a stored history. */
  showHistory(history: Content[]): void;
  recorder(): SessionRecorder | undefined;
  setRecorder(recorder: SessionRecorder): void;
  submitPrompt(text: string, display: string): void;
  runTool(name: string, args: Record<string, unknown>): Promise<void>;
  /** The status line's model name. */
  setModelLabel(model: string): void;
  /** Raw bytes to the terminal (OSC 52 clipboard). */
  writeTerminal(seq: string): void;
  /** Opens the session browser; resolves with the pick, or undefined when closed. */
  browseSessions(sessions: SessionInfo[], current?: string): Promise<SessionInfo | undefined>;
  /** `/editor`: the input in $EDITOR, the result back in the input. */
  editInput?(): Promise<void>;
  /** `/rewind`: the conversation view replaced, and text put back in the input. */
  setInput?(text: string): void;
  /** `/theme`: the current theme, and a switch to another. */
  theme?: { current(): string; set(name: 'dark' | 'light'): void; colour: boolean };
  /** `/vim`: vi keys in the input on or off; returns whether they are on. */
  toggleVim?(): boolean;
  /** A list to pick from with the arrow keys and Enter; undefined when closed with Esc. */
  pick?(title: string, items: string[], initial?: number): Promise<number | undefined>;
  /** A yes/no question answered with Enter (yes) or Esc (no). */
  confirm?(question: string): Promise<boolean>;
  /** An abort signal tied to Esc for a long command (`/compress`, `/init`). */
  busy<T>(label: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export type ChatCommand = (input: SlashInput, ctx: ChatCommandContext) => Promise<void> | void;

/** The session, or an error printed saying why the command cannot run. */
export function needSession(ctx: ChatCommandContext): Session | undefined {
  if (!ctx.session) ctx.error('This command needs the model client, which is not available (see the banner).');
  return ctx.session;
}
