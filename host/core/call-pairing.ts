import type { FunctionCall, FunctionResponse } from '@google/genai';

/**
 * Pairs a stored transcript's function responses with the calls they answer, for everything that shows
 * a transcript again (the resumed chat, an editor's session/load). The model's calls usually carry no id
 * while the host's responses carry the id it made up for the call, so an id only pairs when the call has
 * the same one; otherwise a response answers the oldest open call of its name, then the oldest open call.
 */
export class CallPairing<T> {
  private readonly open: { value: T; name?: string; modelId?: string }[] = [];

  /** A call of the transcript, shown as `value`. */
  call(fc: FunctionCall, value: T): void {
    this.open.push({ value, name: fc.name, modelId: fc.id });
  }

  /** The call this response answers, if one is still open. */
  response(r: FunctionResponse): T | undefined {
    let idx = r.id ? this.open.findIndex((c) => c.modelId === r.id) : -1;
    if (idx < 0) idx = this.open.findIndex((c) => c.modelId === undefined && c.name === r.name);
    if (idx < 0) idx = this.open.findIndex((c) => c.name === r.name);
    return this.open.splice(idx >= 0 ? idx : 0, 1)[0]?.value;
  }

  /** The calls no response answered: the turn ended before they finished. */
  unanswered(): T[] {
    return this.open.map((c) => c.value);
  }
}
