import type { ChatCompressionInfo } from '../../core/events.js';
import type { Palette } from '../text/palette.js';
import { formatTokens } from './status-line.js';

/** The line the chat shows for a compression: tokens before → after, or why nothing changed. */
export function compressionNotice(v: ChatCompressionInfo, p: Palette): string {
  if (v.status === 'compressed') {
    return p.gray(
      `Chat history compressed: ${formatTokens(v.originalTokenCount)} → ${formatTokens(v.newTokenCount)} tokens.`,
    );
  }
  return p.yellow(
    `Chat history not compressed (${v.reason ?? v.status}); ${formatTokens(v.originalTokenCount)} tokens.`,
  );
}

/** Core events that end in a note to the user rather than in conversation content. */
export function coreNotice(
  ev: { type: string; value?: unknown },
  p: Palette,
): { kind: 'info' | 'error'; text: string } | undefined {
  if (ev.type === 'loop_detected') return { kind: 'error', text: (ev.value as { message: string }).message };
  // A hook stopped the loop or blocked a message or an answer: say so, with its reason.
  if (ev.type === 'agent_execution_stopped' || ev.type === 'agent_execution_blocked') {
    const verb = ev.type === 'agent_execution_stopped' ? 'stopped' : 'blocked';
    return { kind: 'error', text: `A hook ${verb} this: ${(ev.value as { reason: string }).reason}` };
  }
  if (ev.type === 'chat_compressed')
    return { kind: 'info', text: compressionNotice(ev.value as ChatCompressionInfo, p) };
  return undefined;
}
