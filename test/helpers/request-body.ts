/** The parts of a generateContent request body the tests read (as the scripted endpoint recorded it). */
export type RequestBody = {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  systemInstruction?: { parts?: { text?: string }[] };
  tools?: { functionDeclarations?: { name: string }[] }[];
};

/** The system instruction's text, parts joined. */
export const systemText = (b: RequestBody) => (b.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('');
