import { ensureProjectTempDir } from '../config/paths.js';
import { deleteSession, listSessions } from '../sessions/store.js';
import { formatSessionList, skippedRecordsNotice } from '../sessions/session-list-text.js';
import type { CliArgs } from '../cli-args.js';
import { safeText } from '../safe-text.js';

export interface SessionsCommandIo {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  stdout?: (s: string) => void;
  stderr?: (s: string) => void;
}

/** `--list-sessions` and `--delete-session N|ID`: the project's recorded sessions, no model involved. */
export function runSessionsCommand(args: CliArgs, io: SessionsCommandIo): number {
  const out = io.stdout ?? ((s: string) => void process.stdout.write(s));
  const dir = ensureProjectTempDir(io.cwd, io.env ?? process.env);
  if (args.deleteSession !== undefined) {
    const gone = deleteSession(dir, args.deleteSession);
    out(`Deleted session ${gone.index}: ${safeText(gone.title)} [${safeText(gone.id)}]\n`);
    return 0;
  }
  const warn = io.stderr ?? ((s: string) => void process.stderr.write(s));
  const sessions = listSessions(dir, (m) => warn(`Warning: ${m}\n`));
  for (const s of sessions) {
    const notice = skippedRecordsNotice(s);
    if (notice) warn(`Warning: ${notice}\n`);
  }
  out(formatSessionList(sessions));
  return 0;
}
