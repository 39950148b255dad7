import type { GenerateContentResponse, GoogleGenAI, Tool } from '@google/genai';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../common/tool.js';

export const DEFAULT_MODEL = 'gemini-2.5-flash';

export interface ModelConfig {
  /** `GEMINI_API_KEY` / `GOOGLE_API_KEY`. */
  apiKey?: string;
  /** `--base-url` / `GOOGLE_GEMINI_BASE_URL`. */
  baseUrl?: string;
  model: string;
}

export const MISSING_KEY_MESSAGE =
  'No Gemini API key is configured for the web server. Set GEMINI_API_KEY (or GOOGLE_API_KEY) in its environment; ' +
  'GOOGLE_GEMINI_BASE_URL or --base-url selects another endpoint and --model or GEMINI_MODEL the model.';

/** The model behind the web tools: Gemini through @google/genai, one client per server instance. */
export class WebModel {
  private client: GoogleGenAI | undefined;

  constructor(readonly config: ModelConfig) {}

  get hasKey(): boolean {
    return !!this.config.apiKey;
  }

  async generate(prompt: string, tools: Tool[], signal: AbortSignal): Promise<GenerateContentResponse> {
    if (!this.config.apiKey) throw new Error(MISSING_KEY_MESSAGE);
    // Loaded on first use: the SDK is large and most sessions never call a web tool.
    const { GoogleGenAI: Sdk } = await import('../../protocol/genai-client.js');
    this.client ??= new Sdk({
      apiKey: this.config.apiKey,
      ...(this.config.baseUrl ? { httpOptions: { baseUrl: this.config.baseUrl } } : {}),
    });
    try {
      return await this.client.models.generateContent({
        model: this.config.model,
        contents: [{ role: 'user', parts: [{ text: prompt }] }],
        config: { ...(tools.length ? { tools } : {}), abortSignal: signal },
      });
    } catch (err) {
      throw new Error(apiErrorMessage(err));
    }
  }

  /**
   * A plain answer to `prompt`: through Gemini when a key is set, else through the client's MCP
   * sampling when it offers it.
   */
  async answer(prompt: string, ctx: ToolContext): Promise<string> {
    if (this.hasKey) return responseText(await this.generate(prompt, [], ctx.signal));
    if (!ctx.clientSupportsSampling) throw new Error(MISSING_KEY_MESSAGE);
    const result = await ctx.sendRequest(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 8192,
          includeContext: 'none',
        },
      },
      CreateMessageResultSchema,
    );
    const content = result.content as { type: string; text?: string } | Array<{ type: string; text?: string }>;
    const blocks = Array.isArray(content) ? content : [content];
    return blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
  }
}

/** The answer text of a response: non-thought text parts of the first candidate. */
export function responseText(response: GenerateContentResponse): string {
  const parts = response.candidates?.[0]?.content?.parts ?? [];
  return parts
    .filter((p) => typeof p.text === 'string' && !p.thought)
    .map((p) => p.text)
    .join('');
}

/** The SDK puts the raw JSON error body in `message`; the inner message reads better. */
export function apiErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  try {
    const body = JSON.parse(message) as { error?: { message?: string; code?: number; status?: string } };
    if (body.error?.message) {
      const tag = [body.error.code, body.error.status].filter(Boolean).join(' ');
      return tag ? `${body.error.message} (${tag})` : body.error.message;
    }
  } catch {
    // not JSON: keep as is
  }
  return message;
}
