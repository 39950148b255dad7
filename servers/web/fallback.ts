import { fetchAsText, type FetchedText, type FetchOptions } from './fetch-url.js';

export const TOTAL_TEXT_BUDGET = 250_000;
const CUT_SUFFIX = '\n\n... [Content truncated due to size limit] ...';

export interface FallbackFetch {
  fetched: FetchedText[];
  failures: Array<{ url: string; message: string }>;
}

/** Fetches every URL directly, in parallel; failures are collected per URL. */
export async function fetchAll(urls: string[], opts: FetchOptions): Promise<FallbackFetch> {
  const settled = await Promise.allSettled(urls.map((u) => fetchAsText(u, opts)));
  const fetched: FetchedText[] = [];
  const failures: FallbackFetch['failures'] = [];
  settled.forEach((s, i) => {
    if (s.status === 'fulfilled') fetched.push(s.value);
    else failures.push({ url: urls[i], message: (s.reason as Error).message });
  });
  return { fetched, failures };
}

/**
 * Shares the character budget: the smallest texts are served first and each text gets at most an
 * equal share of what is left, so one huge page cannot crowd out the others.
 */
export function shareBudget(texts: string[], budget = TOTAL_TEXT_BUDGET): string[] {
  const order = texts.map((_t, i) => i).sort((a, b) => texts[a].length - texts[b].length);
  const out = [...texts];
  let left = budget;
  order.forEach((idx, k) => {
    const share = Math.floor(left / (order.length - k));
    const text = texts[idx];
    if (text.length <= share) {
      left -= text.length;
      return;
    }
    out[idx] = text.slice(0, share) + CUT_SUFFIX;
    left -= share;
  });
  return out;
}

export function fallbackPrompt(prompt: string, sources: Array<{ url: string; text: string }>): string {
  const blocks = sources.map((s) => `<source url="${s.url}">\n${s.text}\n</source>`).join('\n\n');
  return (
    'The URLs in the request below could not be read through URL context retrieval, so their content was ' +
    'downloaded directly and is given here. Answer the request from this content only and do not try to ' +
    'open the URLs yourself.\n\n' +
    `<user_instructions>\n${prompt}\n</user_instructions>\n\n${blocks}\n`
  );
}
