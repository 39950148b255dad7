export interface ScriptEntry {
  method: 'generateContentStream' | 'generateContent' | 'countTokens' | string;
  response?: unknown;
  error?: { status: number; body: unknown };
  chunkDelayMs?: number;
  delayMs?: number;
  hang?: boolean;
  raw?: string;
}
export interface RecordedRequest {
  method: 'streamGenerateContent' | 'generateContent' | 'countTokens';
  model: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a request body is JSON that tests and benches dig into
  body: any;
  time: number;
}
export interface ScriptedGemini {
  url: string;
  port: number;
  requests: RecordedRequest[];
  requestsOf(method: RecordedRequest['method']): RecordedRequest[];
  push(...entries: ScriptEntry[]): void;
  remaining(): number;
  close(): Promise<void>;
}
export interface ScriptedGeminiOptions {
  port?: number;
  responder?: (
    req: RecordedRequest,
    all: RecordedRequest[],
  ) => ScriptEntry | undefined | Promise<ScriptEntry | undefined>;
  onRequest?: (req: RecordedRequest) => void;
}
export function startScriptedGemini(script?: ScriptEntry[], opts?: ScriptedGeminiOptions): Promise<ScriptedGemini>;
export function readScript(file: string): ScriptEntry[];
export function chunk(parts: unknown[], last?: boolean, usage?: unknown): unknown;
export const reply: {
  text(...chunks: string[]): ScriptEntry;
  calls(...calls: { id?: string; name: string; args?: Record<string, unknown> }[]): ScriptEntry;
  json(obj: unknown): ScriptEntry;
  error(status: number, message: string, extra?: { method?: string; details?: unknown[] }): ScriptEntry;
};
