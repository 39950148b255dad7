import {
  type Content,
  FunctionCallingConfigMode,
  type GenerateContentParameters,
  GenerateContentResponse,
  type Part,
} from '@google/genai';
import type { HookSystem } from '../hooks/hook-system.js';

/** A hook blocked the model request or its answer, or stopped the loop: the turn ends with this event. */
export class HookHalt extends Error {
  constructor(
    readonly kind: 'blocked' | 'stopped',
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** BeforeModel, BeforeToolSelection and AfterModel around every model request (GeminiChat calls them). */
export interface ModelHooks {
  /** The request to send, or the response a hook gave instead; throws HookHalt. */
  before(
    req: GenerateContentParameters,
    signal: AbortSignal,
  ): Promise<{ request: GenerateContentParameters; response?: GenerateContentResponse }>;
  /** The stream as AfterModel hooks rewrite it, chunk by chunk; throws HookHalt. */
  after(
    req: GenerateContentParameters,
    stream: AsyncGenerator<GenerateContentResponse>,
    signal: AbortSignal,
  ): AsyncGenerator<GenerateContentResponse>;
}

/** Gemini CLI's stable request shape for hooks: text messages, the generation settings. */
function toHookRequest(req: GenerateContentParameters) {
  const contents = (Array.isArray(req.contents) ? req.contents : [req.contents]) as Content[];
  const messages = contents
    .map((c) => ({ role: c.role === 'model' ? 'model' : 'user', content: textOf(c.parts ?? []) }))
    .filter((m) => m.content);
  const c = req.config ?? {};
  return {
    model: req.model,
    messages,
    config: { temperature: c.temperature, maxOutputTokens: c.maxOutputTokens, topP: c.topP, topK: c.topK },
  };
}

function toHookResponse(r: GenerateContentResponse) {
  return {
    text: (r.candidates?.[0]?.content?.parts ?? []).map((p) => (p.thought ? '' : (p.text ?? ''))).join(''),
    candidates: (r.candidates ?? []).map((c) => ({
      content: {
        role: 'model',
        parts: (c.content?.parts ?? []).filter((p) => !p.thought && p.text).map((p) => p.text),
      },
      finishReason: c.finishReason,
      index: c.index,
      safetyRatings: c.safetyRatings?.map((x) => ({
        category: String(x.category || ''),
        probability: String(x.probability || ''),
      })),
    })),
    // Gemini CLI's hook API has the three counts only.
    usageMetadata: r.usageMetadata
      ? {
          promptTokenCount: r.usageMetadata.promptTokenCount,
          candidatesTokenCount: r.usageMetadata.candidatesTokenCount,
          totalTokenCount: r.usageMetadata.totalTokenCount,
        }
      : undefined,
  };
}

const textOf = (parts: Part[]) => parts.map((p) => (typeof p.text === 'string' && !p.thought ? p.text : '')).join('');

type HookResponse = {
  candidates?: { content?: { parts?: unknown[] }; finishReason?: string }[];
  usageMetadata?: unknown;
};

/** A hook's response as the SDK's, keeping the non-text parts (function calls) of `base`. */
function fromHookResponse(h: HookResponse, base?: GenerateContentResponse): GenerateContentResponse {
  const out = new GenerateContentResponse();
  out.candidates = (h.candidates ?? []).map((c, i) => {
    const kept = (base?.candidates?.[i]?.content?.parts ?? []).filter((p) => typeof p.text !== 'string');
    const text = (c.content?.parts ?? []).map((t) => ({ text: String(t) }));
    return {
      content: { role: 'model', parts: [...text, ...kept] },
      ...(c.finishReason ? { finishReason: c.finishReason as never } : { finishReason: 'STOP' as never }),
      index: i,
    };
  });
  if (h.usageMetadata) out.usageMetadata = h.usageMetadata as never;
  else if (base?.usageMetadata) out.usageMetadata = base.usageMetadata;
  return out;
}

/** A hook's `llm_request` laid over the real request: model, generation settings, message texts in order. */
function applyHookRequest(req: GenerateContentParameters, h: Record<string, unknown>): GenerateContentParameters {
  const out: GenerateContentParameters = { ...req, config: { ...req.config } };
  if (typeof h.model === 'string' && h.model) out.model = h.model;
  const cfg = h.config as Record<string, unknown> | undefined;
  for (const k of ['temperature', 'maxOutputTokens', 'topP', 'topK'] as const)
    if (typeof cfg?.[k] === 'number') (out.config as Record<string, unknown>)[k] = cfg[k];
  const messages = h.messages as { role?: string; content?: unknown }[] | undefined;
  if (Array.isArray(messages)) {
    const contents = [...((Array.isArray(req.contents) ? req.contents : [req.contents]) as Content[])];
    let i = 0;
    const merged = contents.map((c) => {
      const parts = c.parts ?? [];
      if (!parts.some((p) => typeof p.text === 'string') || i >= messages.length) return c;
      const m = messages[i++]!;
      return { ...c, parts: [{ text: String(m.content ?? '') }, ...parts.filter((p) => typeof p.text !== 'string')] };
    });
    for (; i < messages.length; i++)
      merged.push({
        role: messages[i]!.role === 'model' ? 'model' : 'user',
        parts: [{ text: String(messages[i]!.content ?? '') }],
      });
    out.contents = merged;
  }
  return out;
}

/**
 * The model hooks over the hook system. Function names a BeforeToolSelection hook allows may be written as
 * Gemini CLI names them (`read_file`); `exposedOf` turns them into the names the model is offered.
 */
export function modelHooks(system: HookSystem, exposedOf: (name: string) => string | undefined): ModelHooks {
  return {
    async before(req, signal) {
      let request = req;
      if (system.has('BeforeModel')) {
        const o = await system.fire('BeforeModel', { llm_request: toHookRequest(req) }, {}, signal);
        if (o.stopped !== undefined) throw new HookHalt('stopped', o.stopped);
        const specific = Object.assign({}, ...o.outputs.map((x) => (x.hookSpecificOutput ?? {}) as object)) as Record<
          string,
          unknown
        >;
        if (specific.llm_response)
          return { request, response: fromHookResponse(specific.llm_response as HookResponse) };
        if (o.blocked !== undefined) throw new HookHalt('blocked', o.blocked);
        if (specific.llm_request && typeof specific.llm_request === 'object')
          request = applyHookRequest(request, specific.llm_request as Record<string, unknown>);
      }
      if (system.has('BeforeToolSelection')) request = await selectTools(system, request, exposedOf, signal);
      return { request };
    },
    async *after(req, stream, signal) {
      if (!system.has('AfterModel')) return yield* stream;
      const llmRequest = toHookRequest(req);
      for await (const chunk of stream) {
        const o = await system.fire(
          'AfterModel',
          { llm_request: llmRequest, llm_response: toHookResponse(chunk) },
          {},
          signal,
        );
        if (o.stopped !== undefined) throw new HookHalt('stopped', o.stopped);
        if (o.blocked !== undefined) throw new HookHalt('blocked', o.blocked);
        const specific = Object.assign({}, ...o.outputs.map((x) => (x.hookSpecificOutput ?? {}) as object)) as Record<
          string,
          unknown
        >;
        const replaced = specific.llm_response as HookResponse | undefined;
        yield replaced?.candidates?.[0]?.content?.parts?.length ? fromHookResponse(replaced, chunk) : chunk;
      }
    },
  };
}

/** BeforeToolSelection, merged as Gemini CLI does: NONE wins, then ANY, else AUTO; allowed names are a union. */
async function selectTools(
  system: HookSystem,
  req: GenerateContentParameters,
  exposedOf: (name: string) => string | undefined,
  signal: AbortSignal,
): Promise<GenerateContentParameters> {
  const o = await system.fire('BeforeToolSelection', { llm_request: toHookRequest(req) }, {}, signal);
  const configs = o.outputs
    .map(
      (x) =>
        (x.hookSpecificOutput as { toolConfig?: { mode?: string; allowedFunctionNames?: string[] } } | undefined)
          ?.toolConfig,
    )
    .filter((c) => !!c);
  if (!configs.length) return req;
  const names = new Set(configs.flatMap((c) => c.allowedFunctionNames ?? []).map((n) => exposedOf(n) ?? n));
  const mode = configs.some((c) => c.mode === 'NONE')
    ? FunctionCallingConfigMode.NONE
    : configs.some((c) => c.mode === 'ANY')
      ? FunctionCallingConfigMode.ANY
      : FunctionCallingConfigMode.AUTO;
  const allowed = mode === FunctionCallingConfigMode.NONE ? [] : [...names].sort();
  // The API takes allowedFunctionNames only with mode ANY: under AUTO the declarations themselves are narrowed.
  const tools =
    mode === FunctionCallingConfigMode.AUTO && allowed.length
      ? req.config?.tools?.map((t) =>
          'functionDeclarations' in t && t.functionDeclarations
            ? { ...t, functionDeclarations: t.functionDeclarations.filter((d) => names.has(d.name ?? '')) }
            : t,
        )
      : req.config?.tools;
  const withNames = mode === FunctionCallingConfigMode.ANY && allowed.length ? { allowedFunctionNames: allowed } : {};
  return {
    ...req,
    config: {
      ...req.config,
      ...(tools ? { tools } : {}),
      toolConfig: { functionCallingConfig: { mode, ...withNames } },
    },
  };
}
