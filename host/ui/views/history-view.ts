import type { Content, Part } from '@google/genai';
import type { ToolCall } from '../../scheduler/types.js';
import type { Item } from './conversation.js';

function resultText(p: Part): { text: string; failed: boolean } {
  const r = p.functionResponse?.response as { output?: unknown; error?: unknown } | undefined;
  if (typeof r?.error === 'string') return { text: r.error, failed: true };
  return { text: typeof r?.output === 'string' ? r.output : JSON.stringify(r ?? {}), failed: false };
}

/**
 * A stored history as conversation items, so a resumed or restored chat shows what was said and which
 * tools ran (as finished cards with their results).
 */
export function historyItems(history: Content[]): Item[] {
  const items: Item[] = [];
  const cards = new Map<string, { kind: 'tool'; call: ToolCall }>();
  for (const c of history) {
    for (const p of c.parts ?? []) {
      if (p.thought) continue;
      if (p.functionCall) {
        const callId = p.functionCall.id ?? `${p.functionCall.name}-${cards.size}`;
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
            status: 'success',
            startTime: 0,
            endTime: 0,
            response: { callId, responseParts: [], responseText: '', resultDisplay: '' },
          } as ToolCall,
        };
        cards.set(callId, item);
        items.push(item);
      } else if (p.functionResponse) {
        const item = cards.get(p.functionResponse.id ?? '');
        if (!item) continue;
        const { text, failed } = resultText(p);
        const response = {
          callId: item.call.request.callId,
          responseParts: [p],
          responseText: text,
          resultDisplay: text,
        };
        const base = { request: item.call.request, startTime: 0, endTime: 0 };
        item.call = failed
          ? { ...base, status: 'error', response: { ...response, error: text } }
          : { ...base, status: 'success', response };
      } else if (typeof p.text === 'string' && p.text.trim()) {
        items.push(
          c.role === 'model' ? { kind: 'model', text: p.text, streaming: false } : { kind: 'user', text: p.text },
        );
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
