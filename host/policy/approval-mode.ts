import type { ApprovalMode } from '../scheduler/types.js';

/**
 * Every spelling of an approval mode the host accepts: Gemini CLI's flag and settings value (`auto_edit`)
 * and our internal name (`autoEdit`). The one parser for `--approval-mode`, `tools call --approval-mode`
 * and `general.defaultApprovalMode`.
 */
const SPELLINGS: Readonly<Record<string, ApprovalMode>> = {
  default: 'default',
  auto_edit: 'autoEdit',
  autoEdit: 'autoEdit',
  yolo: 'yolo',
  plan: 'plan',
};

/** Every mode, in the order pickers show them (ours; `parseApprovalMode` reads Gemini CLI's spellings too). */
export const APPROVAL_MODES: readonly ApprovalMode[] = ['default', 'autoEdit', 'yolo', 'plan'];

export function isApprovalMode(raw: string): raw is ApprovalMode {
  return (APPROVAL_MODES as readonly string[]).includes(raw);
}

/** For usage messages: the spellings users type. */
export const APPROVAL_MODE_CHOICES = 'default, auto_edit, yolo, plan';

export function parseApprovalMode(raw: string | undefined): ApprovalMode | undefined {
  return raw !== undefined && Object.hasOwn(SPELLINGS, raw) ? SPELLINGS[raw] : undefined;
}

/** An untrusted folder may only use the modes that take permissions away (default, plan), never add them. */
export function modeAllowedUntrusted(mode: ApprovalMode): boolean {
  return mode === 'default' || mode === 'plan';
}
