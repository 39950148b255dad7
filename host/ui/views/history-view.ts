import type { Content } from '@google/genai';
import type { ToolCall } from '../../scheduler/types.js';
import type { Item } from './conversation.js';
import { CallPairing } from '../../core/call-pairing.js';
import { callResult, isHostMarker, isSnapshot, userWords } from '../../core/transcript-rules.js';

const COMPRESSED_NOTE = '(The earlier conversation was compressed into a summary.)';

/**
 * A stored history as conversation items, so a resumed or restored chat shows what was said and which
 * tools ran (as finished cards with their results).
 */
export function historyItems(history: Content[]): Item[] {
  const items: Item[] = [];
  const cards = new CallPairing<{ kind: 'tool'; call: ToolCall }>();
  let callCount = 0;
  let afterSnapshot = false;
  for (const c of history) {
    if (c.role === 'user') {
      const text = userWords(c.parts ?? []);
      afterSnapshot = isSnapshot(text);
      if (afterSnapshot) items.push({ kind: 'info', text: COMPRESSED_NOTE });
      // One message, as typed: the text of an `@path` turn is not split from the files it brought.
      else if (text) items.push({ kind: 'user', text });
    }
    for (const p of c.parts ?? []) {
      if (p.thought) continue;
      if (p.functionCall) {
        const callId = p.functionCall.id ?? `${p.functionCall.name}-${callCount}`;
        callCount++;
        // Shown as finished even before (or without) its response in the history.
        const item = {
          kind: 'tool' as const,
          call: {
            request: {
              callId,
              name: p.functionCall.name ?? '?',
              args: (p.functionCall.args ?? {}) as Record<string, unknown>,
              isClientInitiated: false,
              promptId: '',
            },
            // No response recorded: the turn ended before the call finished.
            status: 'cancelled',
            startTime: 0,
            endTime: 0,
            response: { callId, responseParts: [], responseText: '', resultDisplay: '' },
          } as ToolCall,
        };
        cards.call(p.functionCall, item);
        items.push(item);
      } else if (p.functionResponse) {
        const item = cards.response(p.functionResponse);
        if (!item) continue;
        const { text, status } = callResult(p);
        const response = {
          callId: item.call.request.callId,
          responseParts: [p],
          responseText: text,
          resultDisplay: text,
        };
        const base = { request: item.call.request, startTime: 0, endTime: 0 };
        item.call =
          status === 'success'
            ? { ...base, status, response }
            : ({ ...base, status, response: { ...response, error: text } } as ToolCall);
      } else if (typeof p.text === 'string' && p.text.trim() && c.role === 'model') {
        // The markers the host writes for the model are not something the model said.
        if (isHostMarker(p.text, afterSnapshot)) continue;
        items.push({ kind: 'model', text: p.text, streaming: false });
      }
    }
  }
  return items;
}

/** The newest model answer's text (`/copy`). */
export function lastAnswer(history: Content[]): string | undefined {
  for (let i = history.length - 1; i >= 0; i--) {
    const c = history[i]!;
    if (c.role !== 'model') continue;
    const text = (c.parts ?? [])
      .filter((p) => !p.thought && typeof p.text === 'string')
      .map((p) => p.text)
      .join('');
    if (text.trim()) return text;
  }
  return undefined;
}
