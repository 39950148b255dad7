import type { Content, GenerateContentParameters, GenerateContentResponse, Part } from '@google/genai';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * `sampling/createMessage` answered with the session's Gemini model: the server's messages, system
 * prompt, token bound, temperature and stop sequences become one generateContent request, and the reply
 * becomes the server's CreateMessageResult. No tools are offered to the model here: we do not advertise
 * `sampling.tools`, so a server cannot use sampling to reach the user's tools.
 */

export type SamplingParams = CreateMessageRequest['params'];

/** The part of the content generator sampling needs (ContentGenerator satisfies it). */
export interface SamplingModel {
  generateContent(req: GenerateContentParameters): Promise<GenerateContentResponse>;
}

/** A request the server may not make, reported to it as a JSON-RPC error with this text. */
export class SamplingRequestError extends Error {}

type Block = { type: string; text?: string; data?: string; mimeType?: string };

function partOf(block: Block): Part | undefined {
  switch (block.type) {
    case 'text':
      return { text: block.text ?? '' };
    case 'image':
    case 'audio':
      if (!block.data || !block.mimeType)
        throw new SamplingRequestError(`${block.type} content needs data and mimeType`);
      return { inlineData: { data: block.data, mimeType: block.mimeType } };
    default:
      throw new SamplingRequestError(
        `content of type "${block.type}" is not supported (this client offers no tools to sampling)`,
      );
  }
}

/** MCP sampling messages as Gemini contents (assistant → model); consecutive same-role turns merge. */
export function toContents(messages: SamplingParams['messages']): Content[] {
  const out: Content[] = [];
  for (const m of messages) {
    const blocks = (Array.isArray(m.content) ? m.content : [m.content]) as Block[];
    const parts = blocks.map(partOf).filter((p): p is Part => !!p);
    const role = m.role === 'assistant' ? 'model' : 'user';
    const last = out[out.length - 1];
    if (last && last.role === role) last.parts!.push(...parts);
    else out.push({ role, parts });
  }
  if (out.length === 0) throw new SamplingRequestError('the request has no messages');
  return out;
}

/**
 * The model to use: a hint naming a Gemini model is honoured (the first that does); other hints name
 * other vendors' models and are ignored, so the configured model answers.
 */
export function pickModel(params: SamplingParams, configured: string): string {
  for (const h of params.modelPreferences?.hints ?? []) {
    const name = h.name?.trim();
    if (name && /^gemini-[A-Za-z0-9.-]+$/.test(name)) return name;
  }
  return configured;
}

export function toRequest(params: SamplingParams, model: string): GenerateContentParameters {
  const config: NonNullable<GenerateContentParameters['config']> = {};
  if (params.systemPrompt) config.systemInstruction = params.systemPrompt;
  if (typeof params.maxTokens === 'number' && params.maxTokens > 0)
    config.maxOutputTokens = Math.floor(params.maxTokens);
  if (typeof params.temperature === 'number') config.temperature = params.temperature;
  if (params.stopSequences?.length) config.stopSequences = params.stopSequences;
  return { model, contents: toContents(params.messages), config };
}

function stopReason(finish: string | undefined): CreateMessageResult['stopReason'] {
  if (finish === 'MAX_TOKENS') return 'maxTokens';
  if (finish === 'STOP' || finish === undefined) return 'endTurn';
  return finish;
}

/** The first candidate as one MCP message: its text, or its first inline image when there is no text. */
export function toResult(resp: GenerateContentResponse, model: string): CreateMessageResult {
  const cand = resp.candidates?.[0];
  const parts = (cand?.content?.parts ?? []).filter((p) => !p.thought);
  const text = parts.map((p) => p.text ?? '').join('');
  const image = parts.find((p) => p.inlineData?.data)?.inlineData;
  const content: CreateMessageResult['content'] =
    text === '' && image
      ? { type: 'image', data: image.data!, mimeType: image.mimeType ?? 'image/png' }
      : { type: 'text', text };
  return { role: 'assistant', model: resp.modelVersion ?? model, stopReason: stopReason(cand?.finishReason), content };
}

/** Runs one sampling request against the model; the usage is what the stats count for the server. */
export async function sample(
  gen: SamplingModel,
  params: SamplingParams,
  configuredModel: string,
  signal?: AbortSignal,
): Promise<{ result: CreateMessageResult; usage: GenerateContentResponse['usageMetadata'] }> {
  const model = pickModel(params, configuredModel);
  const req = toRequest(params, model);
  if (signal) req.config = { ...req.config, abortSignal: signal };
  const resp = await gen.generateContent(req);
  return { result: toResult(resp, model), usage: resp.usageMetadata };
}

/** A one-paragraph description of a request for the approval prompt. */
export function describeSampling(params: SamplingParams, max = 600): string {
  const lines: string[] = [];
  if (params.systemPrompt) lines.push(`system: ${params.systemPrompt}`);
  for (const m of params.messages) {
    const blocks = (Array.isArray(m.content) ? m.content : [m.content]) as Block[];
    for (const b of blocks)
      lines.push(`${m.role}: ${b.type === 'text' ? b.text : `[${b.type}${b.mimeType ? ` ${b.mimeType}` : ''}]`}`);
  }
  const extras = [`maxTokens ${params.maxTokens}`];
  if (params.temperature !== undefined) extras.push(`temperature ${params.temperature}`);
  const hints = params.modelPreferences?.hints?.map((h) => h.name).filter(Boolean);
  if (hints?.length) extras.push(`model hints ${hints.join(', ')}`);
  const body = lines.join('\n');
  return `${body.length > max ? `${body.slice(0, max)}…` : body}\n(${extras.join(', ')})`;
}
