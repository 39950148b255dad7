/** URL handling of web_fetch: extraction, validation messages, normalisation. */

export interface ParsedPrompt {
  urls: string[];
  errors: string[];
}

/** Whitespace-separated tokens containing `://` are URLs; only http(s) ones are usable. */
export function parsePromptUrls(prompt: string): ParsedPrompt {
  const urls: string[] = [];
  const errors: string[] = [];
  for (const token of prompt.split(/\s+/)) {
    if (!token.includes('://')) continue;
    let url: URL;
    try {
      url = new URL(token);
    } catch {
      errors.push(`Malformed URL detected: "${token}".`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      errors.push(`Unsupported protocol in URL: "${token}". Only http and https are supported.`);
      continue;
    }
    urls.push(url.href);
  }
  return { urls, errors };
}

/** Host lowercased and default port dropped (the WHATWG parser does both), trailing `/` of a non-root path removed. */
export function normaliseUrl(href: string): string {
  const url = new URL(href);
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '') || '/';
  return url.href;
}

/** `github.com/<owner>/<repo>/blob/<rest>` → `raw.githubusercontent.com/<owner>/<repo>/<rest>`. */
export function githubRawUrl(href: string): string {
  const url = new URL(href);
  if (url.hostname !== 'github.com' && url.hostname !== 'www.github.com') return href;
  const m = /^\/([^/]+)\/([^/]+)\/blob\/(.+)$/.exec(url.pathname);
  if (!m) return href;
  return `https://raw.githubusercontent.com/${m[1]}/${m[2]}/${m[3]}${url.search}`;
}

/** The distinct URLs to fetch, in prompt order. */
export function prepareUrls(urls: string[]): string[] {
  return [...new Set(urls.map((u) => githubRawUrl(normaliseUrl(u))))];
}
