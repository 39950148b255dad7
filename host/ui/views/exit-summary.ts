import type { Content } from '@google/genai';
import type { RunStats } from '../../core/run-stats.js';
import { ensureProjectTempDir } from '../../config/paths.js';
import { messageCount, titleOf } from '../../sessions/records.js';
import { safeText } from '../../safe-text.js';
import { checkSessionRef, recordedTitle } from '../../sessions/store.js';
import type { Controller } from '../controller.js';

/**
 * What the chat prints after the screen is restored: a short account of the session and the command
 * that continues it. Nothing when the session never reached the model (nothing was recorded).
 */
export function exitSummary(opts: {
  sessionId?: string;
  title?: string;
  recorded: boolean;
  history: Content[];
  stats: RunStats;
}): string {
  if (!opts.sessionId || !opts.recorded) return '';
  const { stats, history } = opts;
  const secs = Math.round((Date.now() - stats.started) / 1000);
  const tokens = stats.totalTokens();
  const requests = Object.values(stats.models).reduce((n, m) => n + m.api.totalRequests, 0);
  const t = stats.tools;
  return [
    `Session: ${safeText(opts.title ?? titleOf(history))}`,
    `  ${messageCount(history)} messages · ${requests} model requests · ${tokens} tokens · ${t.totalCalls} tool calls (${t.totalSuccess} ok, ${t.totalFail} failed) · ${Math.floor(secs / 60)}m ${secs % 60}s`,
    `  Resume it with: gemini-mcp --resume ${opts.sessionId}`,
    '',
  ].join('\n');
}

/** The summary for the chat that is closing. */
export function controllerSummary(c: Controller): string {
  const id = c.recorder?.id;
  const recorded = c.recorder?.written ?? false;
  return exitSummary({
    sessionId: id,
    title: recorded && c.recorder ? recordedTitle(c.recorder.file) : undefined,
    recorded,
    history: c.session?.client.chat.getHistory(false) ?? [],
    stats: c.runStats,
  });
}

/**
 * Throws the not-found error (exit 42) for a `--resume` reference that matches no session, so it is
 * reported before the screen takes over the terminal.
 */
export function checkResumeRef(cwd: string, env: NodeJS.ProcessEnv, ref: string): void {
  checkSessionRef(ensureProjectTempDir(cwd, env), ref);
}
