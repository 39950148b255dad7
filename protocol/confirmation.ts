import * as z from 'zod/mini';

/**
 * The typed detail a server attaches to `elicitation/create` under `_meta[META.confirmation]`
 * Defined once here: servers send it, the host renders it and applies policy to it.
 */
export const ConfirmationDetailSchema = z.object({
  kind: z.enum(['edit', 'exec', 'info', 'plan']),
  title: z.string(),
  callId: z.optional(z.string()),
  // edit
  filePath: z.optional(z.string()),
  fileDiff: z.optional(z.string()),
  originalContent: z.optional(z.nullable(z.string())),
  newContent: z.optional(z.string()),
  isNewFile: z.optional(z.boolean()),
  // exec
  command: z.optional(z.string()),
  rootCommands: z.optional(z.array(z.string())),
  directory: z.optional(z.string()),
  description: z.optional(z.string()),
  /** The command goes on running after the call answers (`is_background`), until stopped or the session ends. */
  background: z.optional(z.boolean()),
  // info; plan (the plan's text, with its file in filePath)
  prompt: z.optional(z.string()),
  urls: z.optional(z.array(z.string())),
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

/**
 * The user's answer to a confirmation, one type for host and servers: the confirmation dialog returns
 * it, policy records "always" from it, and a server's tool handler receives it. Its wire form is the
 * elicitation's `content` (`scope` stays in the host: it widens "always" to a whole tool or server).
 */
export type UserAnswer =
  | { decision: 'proceed_once' }
  | { decision: 'proceed_always'; scope?: 'tool' | 'server' }
  | { decision: 'modify'; content: string }
  /** `feedback`: a plan was rejected with the user's reasons (an empty string: rejected without any). */
  | { decision: 'cancel'; feedback?: string };

/** Consent to run as proposed (a modify is consent to run something else; not all tools take one). */
export function proceeds(answer: UserAnswer): boolean {
  return answer.decision === 'proceed_once' || answer.decision === 'proceed_always';
}
