import { describe, expect, it } from 'vitest';
import { CONFIRMATION_REQUESTED_SCHEMA } from '../../../protocol/confirmation.js';
import { META } from '../../../protocol/meta.js';
import {
  type ElicitingContext,
  MAX_CONFIRMATION_CONTENT_CHARS,
  requestConfirmation,
} from '../../../servers/common/confirmation.js';

const detail = {
  kind: 'edit' as const,
  title: 'Edit a.ts',
  filePath: '/w/a.ts',
  originalContent: 'old',
  newContent: 'new',
};

/** A context of the module's own ElicitingContext shape, answering with `reply` (or throwing it). */
function ctx(reply: unknown, over: Partial<ElicitingContext> = {}) {
  const sent: { method: string; params: Record<string, unknown> }[] = [];
  const c: ElicitingContext = {
    clientSupportsElicitation: true,
    sendRequest: async (req) => {
      sent.push(req);
      if (reply instanceof Error) throw reply;
      return reply;
    },
    ...over,
  };
  return { c, sent };
}
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('requestConfirmation', () => {
  it('asks with the confirmation form and the typed detail, with the host call id', async () => {
    const { c, sent } = ctx(accept({ decision: 'proceed_once' }), { callMeta: { [META.callId]: 'call-7' } });
    expect(await requestConfirmation(c, detail, 'Apply this edit?')).toEqual({ decision: 'proceed_once' });
    expect(sent).toEqual([
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Apply this edit?',
          requestedSchema: CONFIRMATION_REQUESTED_SCHEMA,
          _meta: { [META.confirmation]: { ...detail, callId: 'call-7' } },
        },
      },
    ]);
  });

  it('no elicitation in the client, or a call the host pre-approved: proceeds without asking', async () => {
    const plain = ctx(accept({ decision: 'cancel' }), { clientSupportsElicitation: false });
    expect(await requestConfirmation(plain.c, detail, 'm')).toEqual({ decision: 'proceed_once' });
    const pre = ctx(accept({ decision: 'cancel' }), { callMeta: { [META.preapproved]: true } });
    expect(await requestConfirmation(pre.c, detail, 'm')).toEqual({ decision: 'proceed_once' });
    expect([...plain.sent, ...pre.sent]).toEqual([]);
    // Only a real true pre-approves.
    const fake = ctx(accept({ decision: 'cancel' }), { callMeta: { [META.preapproved]: 'true' } });
    expect(await requestConfirmation(fake.c, detail, 'm')).toEqual({ decision: 'cancel' });
  });

  it("each answer, including a generic client's plain proceed", async () => {
    const answer = async (reply: unknown) => requestConfirmation(ctx(reply).c, detail, 'm');
    expect(await answer(accept({ decision: 'proceed' }))).toEqual({ decision: 'proceed_once' });
    expect(await answer(accept({ decision: 'proceed_always' }))).toEqual({ decision: 'proceed_always' });
    expect(await answer(accept({ decision: 'modify', content: 'edited' }))).toEqual({
      decision: 'modify',
      content: 'edited',
    });
  });

  it('anything that is not a clear yes is no: decline, cancel, odd answers, errors', async () => {
    const answer = async (reply: unknown) => requestConfirmation(ctx(reply).c, detail, 'm');
    for (const reply of [
      { action: 'decline' },
      { action: 'decline', content: { decision: 'proceed_once' } },
      { action: 'cancel', content: { decision: 'proceed_always' } },
      { action: 'cancel' },
      accept({}),
      accept({ decision: 'yes please' }),
      accept({ decision: 'modify' }),
      { nonsense: true },
      new Error('timed out'),
    ])
      expect(await answer(reply), JSON.stringify(reply)).toEqual({ decision: 'cancel' });
  });

  it('past the size bound only the diff travels, never the whole contents', async () => {
    const big = 'x'.repeat(MAX_CONFIRMATION_CONTENT_CHARS);
    const { c, sent } = ctx(accept({ decision: 'proceed_once' }));
    await requestConfirmation(c, { ...detail, originalContent: big, newContent: 'y', fileDiff: '@@ -1 +1 @@' }, 'm');
    const meta = (sent[0]?.params._meta ?? {}) as Record<string, Record<string, unknown>>;
    const sentDetail = meta[META.confirmation] ?? {};
    expect(sentDetail.originalContent).toBeUndefined();
    expect(sentDetail.newContent).toBeUndefined();
    expect(sentDetail.fileDiff).toBe('@@ -1 +1 @@');
  });
});
