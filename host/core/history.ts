import type { Content, Part } from '@google/genai';

/** Upstream's sentinel: newer models answer 400 to a function call replayed without any signature. */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';
export const INTERRUPTED_TEXT = '[The previous response was interrupted before it completed.]';

function isValidPart(p: Part): boolean {
  if (!p || Object.keys(p).length === 0) return false;
  if (
    !p.thought &&
    p.text !== undefined &&
    p.text === '' &&
    Object.keys(p).every((k) => k === 'text' || k === 'thoughtSignature')
  ) {
    return false;
  }
  return true;
}

/** A model content is invalid when a part is empty or only `text: ""`; no parts at all is tolerated. */
export function isValidModelContent(c: Content): boolean {
  return (c.parts ?? []).every(isValidPart);
}

/** User turns are kept; a run of consecutive model turns is kept only when every turn in it is valid. */
export function curateHistory(history: readonly Content[]): Content[] {
  const out: Content[] = [];
  for (let i = 0; i < history.length; ) {
    if (history[i]!.role !== 'model') {
      out.push(history[i]!);
      i++;
      continue;
    }
    const run: Content[] = [];
    while (i < history.length && history[i]!.role === 'model') run.push(history[i++]!);
    if (run.every(isValidModelContent)) out.push(...run);
  }
  return out;
}

/** The API wants alternating roles; adjacent same-role turns are merged before each request. */
export function mergeAdjacent(history: Content[]): Content[] {
  const out: Content[] = [];
  for (const c of history) {
    const last = out[out.length - 1];
    if (last && last.role === c.role) last.parts = [...(last.parts ?? []), ...(c.parts ?? [])];
    else out.push({ role: c.role, parts: [...(c.parts ?? [])] });
  }
  return out;
}

/**
 * The stored model turn for a finished stream: thought parts dropped, adjacent plain text parts joined,
 * empty text dropped, and the first function call given a signature when it has none.
 */
export function aggregateModelParts(parts: Part[]): Part[] {
  const out: Part[] = [];
  for (const p of parts) {
    if (p.thought) continue;
    if (p.text !== undefined && Object.keys(p).every((k) => k === 'text')) {
      if (p.text === '') continue;
      const last = out[out.length - 1];
      if (last && last.text !== undefined && Object.keys(last).every((k) => k === 'text')) {
        last.text += p.text;
        continue;
      }
      out.push({ text: p.text });
      continue;
    }
    if (
      p.text === '' &&
      !p.functionCall &&
      !p.inlineData &&
      !p.fileData &&
      !p.executableCode &&
      !p.codeExecutionResult
    ) {
      continue; // a bare signature carrier with no payload is not worth a stored part
    }
    out.push({ ...p });
  }
  const firstCall = out.find((p) => p.functionCall);
  if (firstCall && !firstCall.thoughtSignature) firstCall.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
  return out;
}

export function isFunctionResponseContent(c: Content | undefined): boolean {
  return !!c && c.role === 'user' && !!c.parts?.length && c.parts.some((p) => p.functionResponse);
}
