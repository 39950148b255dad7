import { z } from 'zod';

/**
 * The typed detail a server attaches to `elicitation/create` under `_meta[META.confirmation]`
 * Defined once here: servers send it, the host renders it and applies policy to it.
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
