import { z } from 'zod';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { META } from './meta.js';

/**
 * The typed detail a server attaches to `elicitation/create` under `_meta[META.confirmation]`
 * (contract 1.10). Defined once here; the host imports it to render and to apply policy.
 */
export const ConfirmationDetailSchema = z.object({
  kind: z.enum(['edit', 'exec', 'info']),
  title: z.string(),
  callId: z.string().optional(),
  // edit
  filePath: z.string().optional(),
  fileDiff: z.string().optional(),
  originalContent: z.string().nullable().optional(),
  newContent: z.string().optional(),
  isNewFile: z.boolean().optional(),
  // exec
  command: z.string().optional(),
  rootCommands: z.array(z.string()).optional(),
  directory: z.string().optional(),
  description: z.string().optional(),
  // info
  prompt: z.string().optional(),
  urls: z.array(z.string()).optional(),
});
export type ConfirmationDetail = z.infer<typeof ConfirmationDetailSchema>;

export const DECISIONS = ['proceed_once', 'proceed_always', 'modify', 'cancel'] as const;
export type Decision = (typeof DECISIONS)[number];

/** The flat form schema every confirmation elicitation requests. */
export const CONFIRMATION_REQUESTED_SCHEMA = {
  type: 'object' as const,
  properties: {
    decision: { type: 'string' as const, enum: [...DECISIONS], description: 'What the user chose.' },
    content: { type: 'string' as const, description: 'The edited proposal, when decision is modify.' },
  },
  required: ['decision'],
};

export type ConfirmOutcome =
  | { action: 'proceed' }
  | { action: 'modify'; content: string }
  | { action: 'cancel' };

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
): Promise<ConfirmOutcome> {
  if (!ctx.clientSupportsElicitation) return { action: 'proceed' };
  if (ctx.callMeta?.[META.preapproved] === true) return { action: 'proceed' };
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
    return { action: 'cancel' };
  }
  const parsed = ElicitResultSchema.safeParse(raw);
  if (!parsed.success || parsed.data.action !== 'accept') return { action: 'cancel' };
  const decision = parsed.data.content?.decision;
  if (decision === 'proceed_once' || decision === 'proceed_always' || decision === 'proceed') return { action: 'proceed' };
  if (decision === 'modify') {
    const content = parsed.data.content?.content;
    return typeof content === 'string' ? { action: 'modify', content } : { action: 'cancel' };
  }
  return { action: 'cancel' };
}
