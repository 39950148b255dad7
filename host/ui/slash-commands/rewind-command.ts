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

/** What a rewind goes back on, as Gemini CLI offers it where a checkpoint holds the files. */
type Scope = 'both' | 'conversation' | 'code';

const SCOPES: { scope: Scope; label: string }[] = [
  { scope: 'both', label: 'Rewind conversation and code' },
  { scope: 'conversation', label: 'Rewind conversation only (file changes are kept)' },
  { scope: 'code', label: 'Restore code only (the conversation stays)' },
];

/** The message to go back to: `/rewind N`, else picked with the arrow keys (the newest selected). */
async function chosenPoint(
  arg: string | undefined,
  points: { index: number; text: string }[],
  ctx: Parameters<ChatCommand>[1],
): Promise<{ point: { index: number; text: string }; n: number } | undefined> {
  const p = ctx.palette;
  if (arg) {
    const point = /^\d+$/.test(arg) ? points[Number(arg) - 1] : undefined;
    if (!point) ctx.error(`No message ${arg}: /rewind lists ${points.length}.`);
    return point && { point, n: Number(arg) };
  }
  const rows = points.map((pt, i) => `${String(i + 1).padStart(2)}. ${oneLine(pt.text)}`);
  if (!ctx.pick) {
    ctx.print([p.bold('Rewind to before which message?'), ...rows.map((r) => `  ${r}`)].join('\n'));
    return undefined;
  }
  const i = await ctx.pick('Rewind to before which message?', rows, rows.length - 1);
  if (i === undefined) ctx.print(p.gray('Rewind cancelled.'));
  return i === undefined ? undefined : { point: points[i]!, n: i + 1 };
}

/**
 * `/rewind` opens your earlier messages (oldest on top, the newest selected; ↑/↓ and Enter), `/rewind N`
 * takes message N. Where a checkpoint holds the files as they were before it, Gemini CLI's three choices
 * are offered (conversation and code, conversation only, code only); without one, the question says
 * plainly that file changes are kept. The conversation goes back to just before the message, which is put
 * back in the input to edit and send again. Esc Esc on an empty prompt opens the list.
 */
export const rewindCommand: ChatCommand = async (input, ctx) => {
  const p = ctx.palette;
  const session = needSession(ctx);
  if (!session) return;
  const chat = session.client.chat;
  const history = chat.getHistory(false);
  const points = rewindPoints(history);
  if (!points.length) return ctx.print(p.gray('Nothing to rewind: no messages yet.'));
  const chosen = await chosenPoint(input.args[0], points, ctx);
  if (!chosen) return;
  const { point, n } = chosen;
  const cp = session.checkpointer;
  const recorderId = ctx.recorder()?.id;
  // The first edit snapshot taken after that message holds the files as they were before it.
  const snapshot = cp
    ?.list()
    .find((r) => (!r.sessionId || r.sessionId === recorderId) && r.history.length > point.index);
  const scope = await chosenScope(point, points.length - points.indexOf(point), !!snapshot, ctx);
  if (!scope) return ctx.print(p.gray('Rewind cancelled.'));
  if (snapshot && cp && scope !== 'conversation') await cp.restore(snapshot.id);
  if (scope === 'code') return ctx.print(p.gray(`Files restored to before message ${n}; the conversation stays.`));
  const kept = history.slice(0, point.index);
  chat.setHistory(kept, 'rewind');
  ctx.showHistory(kept);
  ctx.setInput?.(point.text);
  const files = scope === 'both' ? ' (files restored)' : '; file changes are kept';
  ctx.print(p.gray(`Rewound to before message ${n}${files}; it is back in the input.`));
};

async function chosenScope(
  point: { text: string },
  dropped: number,
  checkpointed: boolean,
  ctx: Parameters<ChatCommand>[1],
): Promise<Scope | undefined> {
  const what = `${dropped} message${dropped === 1 ? '' : 's'} and ${dropped === 1 ? 'its' : 'their'} answers leave the conversation`;
  if (checkpointed && ctx.pick) {
    const i = await ctx.pick(
      `Rewind to before "${oneLine(point.text, 50)}": ${what}. What goes back?`,
      SCOPES.map((s) => s.label),
    );
    return i === undefined ? undefined : SCOPES[i]!.scope;
  }
  const kept = checkpointed
    ? ', and the files go back to how they were'
    : '. File changes are kept: no checkpoint holds the files from before it (--checkpointing takes them)';
  return (await ctx.confirm?.(`Rewind to before "${oneLine(point.text, 50)}"? ${what}${kept}.`))
    ? checkpointed
      ? 'both'
      : 'conversation'
    : undefined;
}
