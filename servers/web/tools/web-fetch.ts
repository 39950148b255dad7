import * as z from 'zod';
import { META } from '../../../protocol/meta.js';
import { proceeds } from '../../../protocol/confirmation.js';
import { defineTool, type ToolContext, type ToolDefinition } from '../../common/tool.js';
import { textResult, ToolError, userCancelled } from '../../common/result.js';
import { wrapUntrusted } from '../../../protocol/tool-result.js';
import { formatSources, insertCitations } from '../citations.js';
import { fallbackPrompt, fetchAll, shareBudget } from '../fallback.js';
import { type HostRateLimiter, isPrivateHost } from '../host-policy.js';
import { MISSING_KEY_MESSAGE, responseText, type WebModel } from '../model.js';
import { parsePromptUrls, prepareUrls } from '../urls.js';

export const webFetchSchema = z.object({
  prompt: z
    .string()
    .describe(
      'The instructions together with the URL(s) to process, e.g. "Summarise https://example.com/a and https://example.com/b".',
    ),
});

export const webFetchAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
} as const;

export interface WebFetchDeps {
  model: WebModel;
  allowPrivateHosts: boolean;
  /** Hosts (`host` or `host:port`) exempt from the private-host rule. */
  allowHosts: string[];
  fetchTimeoutMs: number;
  rateLimiter: HostRateLimiter;
}

export function createWebFetchTool(deps: WebFetchDeps): ToolDefinition {
  const exempt = (url: URL) =>
    deps.allowPrivateHosts || deps.allowHosts.includes(url.host) || deps.allowHosts.includes(url.hostname);
  return defineTool({
    name: 'web_fetch',
    title: 'WebFetch',
    description:
      'Fetches content from URLs and processes it as the prompt instructs (summarise, extract data, answer a ' +
      'question). Put up to 20 complete http:// or https:// URLs and the processing instructions into `prompt`. ' +
      'Local and private network addresses are refused unless the server was started to allow them.',
    inputSchema: webFetchSchema,
    annotations: webFetchAnnotations,
    meta: { [META.confirms]: true },
    handler: async ({ prompt }, ctx) => {
      if (!prompt.trim()) {
        throw new ToolError(
          "The 'prompt' parameter cannot be empty and must contain URL(s) and instructions.",
          'invalid_tool_params',
        );
      }
      const parsed = parsePromptUrls(prompt);
      if (parsed.errors.length) {
        throw new ToolError(`Error(s) in prompt URLs:\n- ${parsed.errors.join('\n- ')}`, 'invalid_tool_params');
      }
      if (!parsed.urls.length) {
        throw new ToolError(
          "The 'prompt' must contain at least one valid URL (starting with http:// or https://).",
          'invalid_tool_params',
        );
      }
      if (!deps.model.hasKey && !ctx.clientSupportsSampling)
        throw new ToolError(MISSING_KEY_MESSAGE, 'web_fetch_processing_error');

      const skipped: string[] = [];
      const allowed: string[] = [];
      let privateAllowed = false;
      const urls = prepareUrls(parsed.urls);
      const privateHosts = await Promise.all(urls.map((url) => isPrivateHost(new URL(url).hostname)));
      for (const [i, url] of urls.entries()) {
        const u = new URL(url);
        const blocked = privateHosts[i];
        if (blocked && !exempt(u)) skipped.push(`[Blocked Host] ${url}`);
        else if (!deps.rateLimiter.take(u.host)) skipped.push(`[Rate limit exceeded] ${url}`);
        else {
          allowed.push(url);
          privateAllowed ||= blocked;
        }
      }
      if (!allowed.length)
        throw new ToolError(`All requested URLs were skipped: ${skipped.join(', ')}`, 'web_fetch_processing_error');

      const outcome = await ctx.confirm(
        { kind: 'info', title: 'Confirm Web Fetch', prompt, urls: allowed },
        `Confirm Web Fetch\n\n${prompt}\n\nURLs to fetch:\n${allowed.map((u) => `- ${u}`).join('\n')}`,
      );
      // Only a plain proceed is consent: `modify` has no meaning for a fetch.
      if (!proceeds(outcome)) {
        for (const url of allowed) deps.rateLimiter.refund(new URL(url).host);
        throw userCancelled();
      }
      const warning = skipped.length ? `[Warning] The following URLs were skipped:\n${skipped.join('\n')}\n\n` : '';

      // Gemini's URL retrieval cannot reach private hosts, and needs our own key.
      if (deps.model.hasKey && !privateAllowed) {
        const primary = await tryPrimary(deps.model, prompt, allowed, ctx);
        if (primary !== undefined)
          return textResult(wrapUntrusted(warning + primary), 'Content processed from prompt.');
        // A cancelled call gets no result: do not start the fallback fetches.
        if (ctx.signal.aborted) throw userCancelled();
      }
      return runFallback(deps, prompt, allowed, warning, exempt, ctx);
    },
  });
}

async function tryPrimary(
  model: WebModel,
  prompt: string,
  urls: string[],
  ctx: ToolContext,
): Promise<string | undefined> {
  const request =
    "Follow the user's instructions to process the authorized URLs.\n\n" +
    `<user_instructions>\n${prompt}\n</user_instructions>\n\n<authorized_urls>\n${urls.join('\n')}\n</authorized_urls>\n`;
  let response;
  try {
    response = await model.generate(request, [{ urlContext: {} }], ctx.signal);
  } catch (err) {
    ctx.log.warn(`web_fetch: URL context call failed, falling back to direct fetch: ${(err as Error).message}`);
    return undefined;
  }
  const candidate = response.candidates?.[0];
  const text = responseText(response);
  const grounding = candidate?.groundingMetadata;
  const statuses = candidate?.urlContextMetadata?.urlMetadata?.map((m) => m.urlRetrievalStatus) ?? [];
  if (statuses.length && statuses.every((s) => s !== 'URL_RETRIEVAL_STATUS_SUCCESS')) return undefined;
  if (!text.trim() && !grounding?.groundingChunks?.length) return undefined;
  const cited = grounding?.groundingChunks?.length ? insertCitations(text, grounding.groundingSupports) : text;
  return cited + formatSources(grounding?.groundingChunks, 'Unknown URI');
}

async function runFallback(
  deps: WebFetchDeps,
  prompt: string,
  urls: string[],
  warning: string,
  exempt: (url: URL) => boolean,
  ctx: ToolContext,
) {
  await ctx.progress(`Fetching ${urls.length} URL(s) directly`);
  const { fetched, failures } = await fetchAll(urls, {
    timeoutMs: deps.fetchTimeoutMs,
    signal: ctx.signal,
    allowPrivate: exempt,
  });
  const failText = failures.map((f) => `${f.url}: ${f.message}`);
  if (!fetched.length) {
    throw new ToolError(`All fallback fetch attempts failed: ${failText.join(', ')}`, 'web_fetch_fallback_failed');
  }
  const texts = shareBudget(
    fetched.map((f) => (f.bodyTruncated ? `${f.text}\n\n[The response body was cut at the 10 MB limit.]` : f.text)),
  );
  let answer: string;
  try {
    answer = await deps.model.answer(
      fallbackPrompt(
        prompt,
        fetched.map((f, i) => ({ url: f.url, text: texts[i] })),
      ),
      ctx,
    );
  } catch (err) {
    throw new ToolError(`Error during fallback processing: ${(err as Error).message}`, 'web_fetch_fallback_failed');
  }
  const failed = failText.length
    ? `[Warning] The following URLs could not be fetched:\n${failText.join('\n')}\n\n`
    : '';
  return textResult(
    wrapUntrusted(warning + failed + answer),
    `Content for ${fetched.length} URL(s) processed using fallback fetch.`,
  );
}
