import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { META } from '../../protocol/meta.js';
import {
  CONFIRMATION_REQUESTED_SCHEMA,
  type ConfirmationDetail,
  type UserAnswer,
} from '../../protocol/confirmation.js';

/** Minimal view of the request context the SDK hands a tool handler. */
export interface ElicitingContext {
  clientSupportsElicitation: boolean;
  callMeta?: Record<string, unknown>;
  sendRequest: (req: { method: 'elicitation/create'; params: Record<string, unknown> }) => Promise<unknown>;
}

/**
 * Asks the client before a side effect. Clients without elicitation run their own approval before
 * calling, and a host that already allowed the call marks it pre-approved: both proceed directly.
 */
export async function requestConfirmation(
  ctx: ElicitingContext,
  detail: Omit<ConfirmationDetail, 'callId'>,
  message: string,
): Promise<UserAnswer> {
  if (!ctx.clientSupportsElicitation) return { decision: 'proceed_once' };
  if (ctx.callMeta?.[META.preapproved] === true) return { decision: 'proceed_once' };
  detail = withinElicitationBound(detail);
  const callId = typeof ctx.callMeta?.[META.callId] === 'string' ? (ctx.callMeta[META.callId] as string) : undefined;
  let raw: unknown;
  try {
    raw = await ctx.sendRequest({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message,
        requestedSchema: CONFIRMATION_REQUESTED_SCHEMA,
        _meta: { [META.confirmation]: { ...detail, ...(callId ? { callId } : {}) } },
      },
    });
  } catch {
    // A timed-out or failed question is not consent.
    return { decision: 'cancel' };
  }
  const parsed = ElicitResultSchema.safeParse(raw);
  if (!parsed.success || parsed.data.action !== 'accept') return { decision: 'cancel' };
  const decision = parsed.data.content?.decision;
  // `proceed` is what a generic client's form may send for a plain yes.
  if (decision === 'proceed_once' || decision === 'proceed') return { decision: 'proceed_once' };
  if (decision === 'proceed_always') return { decision: 'proceed_always' };
  if (decision === 'modify') {
    const content = parsed.data.content?.content;
    return typeof content === 'string' ? { decision: 'modify', content } : { decision: 'cancel' };
  }
  return { decision: 'cancel' };
}

/** Contents above this many characters stay out of the confirmation request. */
export const MAX_CONFIRMATION_CONTENT_CHARS = 2_000_000;

/**
 * A confirmation request travels as one JSON-RPC line, and clients cap lines (10 MB in the SDK): the
 * full old and new contents of a large file would break the connection, so past the bound only the
 * diff goes (the client then cannot offer editing the proposal).
 */
function withinElicitationBound(detail: Omit<ConfirmationDetail, 'callId'>): Omit<ConfirmationDetail, 'callId'> {
  const size = (detail.originalContent?.length ?? 0) + (detail.newContent?.length ?? 0);
  if (size <= MAX_CONFIRMATION_CONTENT_CHARS) return detail;
  const { originalContent: _o, newContent: _n, ...rest } = detail;
  return rest;
}
