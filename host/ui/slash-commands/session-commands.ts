import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { compressionNotice } from '../views/core-notices.js';
import { needSession, type ChatCommand, type ChatCommandContext } from './command-context.js';
import { writeFileAtomic } from '../../atomic-file.js';
import { deleteChat, listChats, loadChat, saveChat } from '../../sessions/tags.js';
import { shareText } from '../../sessions/share.js';
import { listSessions } from '../../sessions/store.js';
import { formatAge, skippedRecordsNotice } from '../../sessions/session-list-text.js';
import { switchSession } from '../../core/session-switch.js';
import { safeText } from '../../safe-text.js';

const CHAT_USAGE = 'Usage: /chat save TAG | resume TAG | list | delete TAG | share FILE.md|FILE.json';
/** `/chat`'s sub-commands, which Gemini CLI 0.61 also takes under `/resume` (`/resume save TAG`). */
const CHAT_SUBCOMMANDS = new Set(['save', 'resume', 'load', 'list', 'delete', 'share']);

function chatList(ctx: ChatCommandContext, dir: string): void {
  const p = ctx.palette;
  const tags = listChats(dir);
  if (!tags.length) {
    ctx.print(p.gray('No saved chats yet: /chat save TAG saves this one.'));
    return;
  }
  ctx.print(
    [
      p.bold('Saved chats'),
      ...tags.map(
        (t) => `  ${p.cyan(t.tag)} ${p.gray(`(${formatAge(t.savedAt)}${t.geminiCli ? ', Gemini CLI' : ''})`)}`,
      ),
    ].join('\n'),
  );
}

/** `/chat save|resume|list|delete|share`: named snapshots of the conversation and exports. */
export const chatCommand: ChatCommand = (input, ctx) => {
  const [sub, ...words] = input.args;
  const arg = words.join(' ').trim();
  const dir = ctx.runtime?.projectTempDir;
  if (!dir) return ctx.error('The host runtime is still starting.');
  // Bare `/chat` is Gemini CLI 0.61's session browser, as bare `/resume` is.
  if (!sub) return resumeCommand({ ...input, rest: '' }, ctx);
  if (sub === 'list') return chatList(ctx, dir);
  if (!sub || !arg) return ctx.error(CHAT_USAGE);
  if (sub === 'delete') {
    deleteChat(dir, arg);
    return ctx.print(`Deleted saved chat ${ctx.palette.cyan(arg)}.`);
  }
  const session = needSession(ctx);
  if (!session) return;
  const chat = session.client.chat;
  switch (sub) {
    case 'save': {
      const history = chat.getHistory(false);
      if (!history.length) return ctx.error('Nothing to save yet: the conversation is empty.');
      saveChat(dir, arg, history, ctx.recorder()?.id);
      return ctx.print(
        `Conversation saved as ${ctx.palette.cyan(arg)} (${history.length} entries). /chat resume ${arg} brings it back.`,
      );
    }
    case 'resume':
    case 'load': {
      const saved = loadChat(dir, arg);
      chat.setHistory(saved.history, `resume-tag:${saved.tag}`);
      ctx.showHistory(saved.history);
      return ctx.print(`Resumed saved chat ${ctx.palette.cyan(saved.tag)} from ${formatAge(new Date(saved.savedAt))}.`);
    }
    case 'share': {
      const file = isAbsolute(arg) ? arg : resolve(ctx.cwd, arg);
      // An export is the user's conversation: private, whatever a file or link already there says.
      writeFileAtomic(file, shareText(file, chat.getHistory(false)), { mode: 0o600 });
      return ctx.print(`Conversation written to ${file}.`);
    }
    default:
      return ctx.error(CHAT_USAGE);
  }
};

/** `/resume` opens the session browser; `/resume N|ID|latest` continues that session here directly. */
export const resumeCommand: ChatCommand = async (input, ctx) => {
  const p = ctx.palette;
  const dir = ctx.runtime?.projectTempDir;
  if (!dir) return ctx.error('The host runtime is still starting.');
  if (CHAT_SUBCOMMANDS.has(input.args[0] ?? '')) return chatCommand(input, ctx);
  const session = needSession(ctx);
  if (!session) return;
  let ref = input.rest;
  if (!ref) {
    const all = listSessions(dir);
    if (!all.length) return ctx.print(p.gray('No recorded sessions for this project yet.'));
    const picked = await ctx.browseSessions(all, ctx.recorder()?.id);
    if (!picked) return ctx.print(p.gray('Resume closed.'));
    ref = picked.id;
  }
  const { recorder, loaded } = await switchSession(session, dir, { kind: 'resume', ref }, (m) => ctx.error(m));
  ctx.setRecorder(recorder);
  ctx.showHistory(loaded.transcript);
  ctx.print(`Resumed session ${loaded.index}: ${safeText(loaded.title)} ${p.gray(`[${loaded.id}]`)}`);
  if (loaded.geminiCli)
    ctx.print(p.gray(`Gemini CLI's file is left as it is: this conversation goes on as session ${recorder.id}.`));
  const notice = skippedRecordsNotice(loaded);
  if (notice) ctx.print(p.yellow(notice));
};

/** `/compress`: summarise the history now, whatever its size. */
export const compressCommand: ChatCommand = async (_input, ctx) => {
  const session = needSession(ctx);
  if (!session) return;
  const info = await ctx.busy('Compressing', (signal) => session.client.compress(signal, true));
  ctx.print(compressionNotice(info, ctx.palette));
};

/** `/restore` lists checkpoints; `/restore N|ID` puts back the project's files and the conversation. */
export const restoreCommand: ChatCommand = async (input, ctx) => {
  const p = ctx.palette;
  const session = needSession(ctx);
  if (!session) return;
  const cp = session.checkpointer;
  if (!cp) return ctx.error('Checkpointing is off: set general.checkpointing.enabled or start with --checkpointing.');
  if (!input.rest) {
    const all = cp.list();
    if (!all.length) return ctx.print(p.gray('No checkpoints yet: one is taken before each approved edit.'));
    const lines = all.map(
      (r, i) =>
        `  ${p.cyan(String(i + 1).padStart(2))}. ${formatAge(new Date(r.time))} ${p.gray('·')} ${r.tool.name} ${r.file ?? ''} ${p.gray(r.id)}`,
    );
    return ctx.print(
      [
        p.bold(`Checkpoints (${all.length})`),
        ...lines,
        p.gray('Type /restore N to restore the files and the conversation.'),
      ].join('\n'),
    );
  }
  const { record, history } = await cp.restore(input.rest);
  session.client.chat.setHistory(history, `restore:${record.id}`);
  ctx.showHistory(history);
  ctx.print(
    `Restored checkpoint ${p.cyan(record.id)}: files and conversation are back to before ${record.tool.name}${record.file ? ` ${record.file}` : ''}.`,
  );
};

/**
 * `/export-session FILE` (Gemini CLI's name): the current session as one JSON file — its id, start,
 * folder, model and the conversation — written atomically.
 */
export const exportSessionCommand: ChatCommand = (input, ctx) => {
  const arg = input.rest.trim();
  if (!arg)
    return ctx.error('Please provide a file path to export the session to. Example: /export-session ./my-session.json');
  const session = needSession(ctx);
  if (!session) return;
  const file = isAbsolute(arg) ? arg : resolve(ctx.cwd, arg);
  const data = {
    sessionId: ctx.recorder()?.id ?? session.sessionId,
    exportedAt: new Date().toISOString(),
    cwd: ctx.cwd,
    model: session.client.model,
    history: session.client.chat.getHistory(false),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  ctx.print(`Session exported to ${file}.`);
};
