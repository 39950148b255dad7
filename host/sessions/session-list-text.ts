import { safeText } from '../safe-text.js';
import type { SessionInfo } from './store.js';

/** How sessions are shown in lists and notices: `--list-sessions`, the chat's browser, a resume. */

/** The warning for a session some of whose records were skipped. */
export function skippedRecordsNotice(s: Pick<SessionInfo, 'file' | 'skipped'>): string | undefined {
  if (!s.skipped.length) return undefined;
  const n = s.skipped.length;
  return `${s.file}: ${n} record${n === 1 ? '' : 's'} of the wrong shape skipped, the rest is usable: ${safeText(s.skipped.join('; '))}`;
}

/** "just now", "5 minutes ago", "3 days ago". */
export function formatAge(from: Date, now = new Date()): string {
  const s = Math.max(0, Math.round((now.getTime() - from.getTime()) / 1000));
  const units: [number, string][] = [
    [86400 * 365, 'year'],
    [86400 * 30, 'month'],
    [86400, 'day'],
    [3600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const n = Math.floor(s / size);
    if (n >= 1) return `${n} ${name}${n === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** One numbered line per session: title, age, id. */
export function formatSessionList(sessions: SessionInfo[], now = new Date()): string {
  if (sessions.length === 0) return 'No saved sessions for this project yet.\n';
  const lines = [`Sessions for this project (${sessions.length}):`];
  for (const s of sessions)
    lines.push(
      `  ${s.index}. ${safeText(s.title)} (${formatAge(s.updated, now)}${s.geminiCli ? ', Gemini CLI' : ''}) [${safeText(s.id)}]`,
    );
  return `${lines.join('\n')}\n`;
}
