import type { Content } from '@google/genai';
import { needSession, type ChatCommand } from './command-context.js';
import { safeText } from '../../safe-text.js';

/** A message the user typed: a user content with text that is not a tool's answer. */
function typedText(c: Content): string | undefined {
  if (c.role !== 'user' || (c.parts ?? []).some((p) => p.functionResponse)) return undefined;
  const text = (c.parts ?? [])
    .filter((p) => typeof p.text === 'string' && !/^\n--- Content from /.test(p.text))
    .map((p) => p.text)
    .join('')
    .trim();
  return text && !text.startsWith('<state_snapshot>') ? text : undefined;
}

/** The user's messages with their place in the history, oldest first (as Gemini CLI lists them). */
export function rewindPoints(history: Content[]): { index: number; text: string }[] {
  return history.flatMap((c, index) => {
    const text = typedText(c);
    return text ? [{ index, text }] : [];
  });
}

const oneLine = (t: string, max = 70) => {
  // The text comes from the session (a resumed file's too): control characters made visible.
  const l = safeText(t.replace(/\s+/g, ' '));
  return l.length > max ? `${l.slice(0, max - 1)}…` : l;
};

/**
 * `/rewind` lists your earlier messages (oldest on top); `/rewind N` asks for a confirmation, then the
 * conversation goes back to just before message N (with checkpointing on, the files too) and the message
 * is put back in the input to edit and send again. Esc Esc on an empty prompt opens the list.
 */
export const rewindCommand: ChatCommand = async (input, ctx) => {
  const p = ctx.palette;
  const session = needSession(ctx);
  if (!session) return;
  const chat = session.client.chat;
  const history = chat.getHistory(false);
  const points = rewindPoints(history);
  if (!points.length) return ctx.print(p.gray('Nothing to rewind: no messages yet.'));
  const arg = input.args[0];
  if (!arg) {
    return ctx.print(
      [
        p.bold('Rewind to before which message?'),
        ...points.map((pt, i) => `  ${p.cyan(String(i + 1).padStart(2))}. ${oneLine(pt.text)}`),
        p.gray('Type /rewind N: the conversation goes back to just before message N, which returns to the input.'),
      ].join('\n'),
    );
  }
  const point = /^\d+$/.test(arg) ? points[Number(arg) - 1] : undefined;
  if (!point) return ctx.error(`No message ${arg}: /rewind lists ${points.length}.`);
  const cp = session.checkpointer;
  const recorderId = ctx.recorder()?.id;
  // The first edit snapshot taken after that message holds the files as they were before it.
  const snapshot = cp
    ?.list()
    .find((r) => (!r.sessionId || r.sessionId === recorderId) && r.history.length > point.index);
  const dropped = points.length - points.indexOf(point);
  const question = `Rewind to before "${oneLine(point.text, 50)}"? ${dropped} message${dropped === 1 ? '' : 's'} and ${dropped === 1 ? 'its' : 'their'} answers leave the conversation${snapshot ? ', and the files go back to how they were' : ''}.`;
  if (!(await ctx.confirm?.(question))) return ctx.print(p.gray('Rewind cancelled.'));
  if (snapshot && cp) await cp.restore(snapshot.id);
  const kept = history.slice(0, point.index);
  chat.setHistory(kept, 'rewind');
  ctx.showHistory(kept);
  ctx.setInput?.(point.text);
  ctx.print(p.gray(`Rewound to before message ${arg}${snapshot ? ' (files restored)' : ''}; it is back in the input.`));
};
