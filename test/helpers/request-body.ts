/** The parts of a generateContent request body the tests read (as the scripted endpoint recorded it). */
export type RequestBody = {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  systemInstruction?: { parts?: { text?: string }[] };
  tools?: { functionDeclarations?: { name: string }[] }[];
};

/** The system instruction's text, parts joined. */
export const systemText = (b: RequestBody) => (b.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('');

/** What the model was sent as the response of call `id` (its JSON), from every request the endpoint got; '' if none. */
export function functionResponseOf(requests: { body: unknown }[], id: string): string {
  for (const q of requests)
    for (const c of (q.body as RequestBody).contents)
      for (const p of c.parts) {
        const r = p.functionResponse as { id?: string; response?: unknown } | undefined;
        if (r?.id === id) return JSON.stringify(r.response);
      }
  return '';
}
