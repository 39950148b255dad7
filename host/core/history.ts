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
    // The run is told by its bounds, not gathered: this runs over the whole history before every request.
    let end = i;
    let valid = true;
    for (; end < history.length && history[end]!.role === 'model'; end++) valid &&= isValidModelContent(history[end]!);
    if (valid) for (; i < end; i++) out.push(history[i]!);
    i = end;
  }
  return out;
}

/**
 * The API wants alternating roles; adjacent same-role turns are merged before each request. The request is
 * only read (serialised), so a content with no same-role neighbour goes in as it is: copying each of them
 * before every request was a second copy of the whole history (10,000 contents for a long resumed session)
 * kept alive until the request was written. A merged turn is a new content; the input is never changed.
 */
export function mergeAdjacent(history: readonly Content[]): Content[] {
  const out: Content[] = [];
  // The index in `out` of the content this call made last: only that one may be extended in place.
  let made = -1;
  for (const c of history) {
    const at = out.length - 1;
    const last = out[at];
    if (last && last.role === c.role) {
      if (made !== at) {
        out[at] = { role: last.role, parts: [...(last.parts ?? [])] };
        made = at;
      }
      for (const p of c.parts ?? []) out[at]!.parts!.push(p);
    } else if (Array.isArray(c.parts)) out.push(c);
    else {
      // A content without parts is sent with an empty list, as a copy always was.
      out.push({ role: c.role, parts: [] });
      made = out.length - 1;
    }
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
