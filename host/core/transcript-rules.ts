import type { Part } from '@google/genai';
import { INTERRUPTED_TEXT } from './history.js';
import { SNAPSHOT_ACK } from './compression.js';
import { ABORTED, CANCELLED_BY_USER, CANCELLED_WAITING } from '../scheduler/texts.js';
import { UNFINISHED_CALL_TEXT } from '../sessions/records.js';

/**
 * How a stored transcript reads to the user, shared by everything that shows one again (the resumed chat,
 * an editor's session/load): the user's own words, which model texts are host markers, and how each call
 * ended.
 */

/** Denied, cancelled or never finished: never shown as a success. */
const CANCELLED = [CANCELLED_BY_USER, CANCELLED_WAITING, ABORTED, UNFINISHED_CALL_TEXT];
/** What the host adds to a user's message (files read for `@path`): not what the user typed. */
const ADDED_CONTEXT = /^\n--- Content from (?:referenced files|resource )/;

/** A function response's text for the user and how the call ended. */
export function callResult(p: Part): { text: string; status: 'success' | 'error' | 'cancelled' } {
  const r = p.functionResponse?.response as { output?: unknown; error?: unknown } | undefined;
  if (typeof r?.error === 'string')
    return { text: r.error, status: CANCELLED.some((c) => r.error === c) ? 'cancelled' : 'error' };
  return { text: typeof r?.output === 'string' ? r.output : JSON.stringify(r ?? {}), status: 'success' };
}

/** The user's own words of one user content: its text parts, without the context the host added. */
export function userWords(parts: Part[]): string {
  return parts
    .filter((p) => typeof p.text === 'string' && !ADDED_CONTEXT.test(p.text))
    .map((p) => p.text)
    .join('')
    .trim();
}

/** A user content that is a compression summary, not something the user typed. */
export const isSnapshot = (userText: string): boolean => userText.startsWith('<state_snapshot>');

/** A model text the host wrote for the model (an interrupted turn, a summary's acknowledgement). */
export function isHostMarker(text: string, afterSnapshot: boolean): boolean {
  return text === INTERRUPTED_TEXT || (text === SNAPSHOT_ACK && afterSnapshot);
}
