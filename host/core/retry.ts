// Backoff for model requests. The SDK's own retries stay off so attempts do not multiply.

export interface RetryOptions {
  maxAttempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
  signal?: AbortSignal;
  /** Called before each wait, so the user sees every retry. */
  onRetry?: (info: RetryInfo) => void;
  retryFetchErrors?: boolean;
}

export interface RetryInfo {
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  reason: string;
}

const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNREFUSED',
  'EPROTO',
  'ERR_STREAM_PREMATURE_CLOSE',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/**
 * Nothing answers at the endpoint (refused, no route, unknown host): a few quick retries ride out a
 * restart, but a long backoff would only leave the user watching a spinner for minutes.
 */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
export const UNREACHABLE_ATTEMPTS = 3;
const UNREACHABLE_DELAY_MS = 500;

export function isUnreachable(err: unknown): boolean {
  return httpStatusOf(err) === undefined && errorCodes(err).some((c) => UNREACHABLE_CODES.has(c));
}

/** The wait before quick retry `attempt` (1-based) of an unreachable endpoint; never above the normal one. */
export function unreachableDelay(attempt: number, initialDelayMs: number): number {
  return Math.min(initialDelayMs, UNREACHABLE_DELAY_MS * attempt);
}

/** The endpoint could not be reached: the message names it and what to check. */
export class EndpointUnreachableError extends Error {
  constructor(
    readonly endpoint: string,
    cause: unknown,
  ) {
    const why = networkCause(cause) ?? (cause as Error)?.message ?? String(cause);
    super(`Cannot reach the Gemini API at ${endpoint} (${why}).`, { cause });
    this.name = 'EndpointUnreachableError';
  }
}

/** A server delay beyond this, a per-day quota or `limit: 0` will not clear by waiting. */
const MAX_SERVER_DELAY_MS = 300_000;

export function httpStatusOf(err: unknown): number | undefined {
  const s = (err as { status?: unknown })?.status;
  return typeof s === 'number' ? s : undefined;
}

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  let e: unknown = err;
  for (let depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

export function isAbortError(err: unknown): boolean {
  return (err as { name?: string })?.name === 'AbortError';
}

/** The body of an ApiError is the raw JSON the server sent; dig out `error.details` and `error.message`. */
function apiErrorBody(err: unknown): {
  message?: string;
  details?: { '@type'?: string; retryDelay?: string; reason?: string; violations?: unknown[] }[];
} {
  const msg = (err as Error)?.message ?? '';
  const start = msg.indexOf('{');
  if (start < 0) return {};
  try {
    const parsed = JSON.parse(msg.slice(start)) as { error?: { message?: string; details?: [] } };
    return parsed.error ?? {};
  } catch {
    return {};
  }
}

/** The server-requested delay from RetryInfo `retryDelay` ("2s", "0.5s") or "Please retry in Xs". */
export function serverRetryDelayMs(err: unknown): number | undefined {
  const body = apiErrorBody(err);
  for (const d of body.details ?? []) {
    if (d['@type']?.endsWith('google.rpc.RetryInfo') && typeof d.retryDelay === 'string') {
      const m = /^([\d.]+)s$/.exec(d.retryDelay.trim());
      if (m) return Math.round(Number(m[1]) * 1000);
    }
  }
  const m = /Please retry in ([\d.]+)(ms|s)/i.exec(body.message ?? (err as Error)?.message ?? '');
  if (m) return Math.round(Number(m[1]) * (m[2] === 'ms' ? 1 : 1000));
  return undefined;
}

/** ErrorInfo reasons of a usage limit that waiting will not clear (Gemini CLI's terminal quota errors). */
const TERMINAL_QUOTA_REASONS = new Set(['QUOTA_EXHAUSTED', 'MODEL_CAPACITY_EXHAUSTED', 'MODEL_CAPACITY_EXCEEDED']);

function isTerminalQuota(err: unknown): boolean {
  const text = (err as Error)?.message ?? '';
  if (/PerDay|per day/i.test(text) || /"limit"\s*:\s*0\b|limit: 0\b/.test(text)) return true;
  const body = apiErrorBody(err);
  if (/exhausted your capacity|capacity exceeded/i.test(body.message ?? '')) return true;
  return (body.details ?? []).some(
    (d) =>
      (d['@type']?.endsWith('google.rpc.ErrorInfo') && TERMINAL_QUOTA_REASONS.has(d.reason ?? '')) ||
      (d['@type']?.endsWith('google.rpc.QuotaFailure') &&
        (d.violations ?? []).some((v) => /Daily/.test((v as { quotaId?: string })?.quotaId ?? ''))),
  );
}

/** A 429 whose reason is a used-up quota or capacity: retrying the same model is pointless, another may work. */
export function isQuotaExhausted(err: unknown): boolean {
  return httpStatusOf(err) === 429 && isTerminalQuota(err);
}

export function isRetryable(err: unknown, retryFetchErrors = true): boolean {
  if (isAbortError(err)) return false;
  const status = httpStatusOf(err);
  if (status !== undefined) {
    if (status === 429) return !isTerminalQuota(err);
    return status === 499 || (status >= 500 && status < 600);
  }
  if (errorCodes(err).some((c) => NETWORK_CODES.has(c))) return true;
  const msg = ((err as Error)?.message ?? '').toLowerCase();
  return retryFetchErrors && (msg.includes('fetch failed') || msg.includes('incomplete json segment'));
}

/** The innermost `cause` message of a network failure ("connect ECONNREFUSED 127.0.0.1:1"). */
export function networkCause(err: unknown): string | undefined {
  let e = (err as { cause?: unknown })?.cause;
  let msg: string | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    const m = (e as Error).message;
    if (typeof m === 'string' && m) msg = m;
    e = (e as { cause?: unknown }).cause;
  }
  return msg;
}

export function describeError(err: unknown): string {
  const status = httpStatusOf(err);
  const body = apiErrorBody(err);
  const msg = body.message ?? (err as Error)?.message ?? String(err);
  if (status !== undefined) return `[${status}] ${msg}`;
  // The SDK's bare "fetch failed" hides the reason (refused, DNS, TLS) in `cause`.
  const cause = networkCause(err);
  return cause && !msg.includes(cause) ? `${msg} (${cause})` : msg;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? abortError());
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export function abortError(): Error {
  return Object.assign(new Error('The operation was aborted.'), { name: 'AbortError' });
}

/** Exponential backoff with ±30% jitter; a server delay raises the wait to at least that value (+0–20%). */
export function nextDelay(current: number, err: unknown, opts: Pick<RetryOptions, 'maxDelayMs'>): number {
  const server = serverRetryDelayMs(err);
  if (server !== undefined) return Math.max(current, server) + Math.round(server * 0.2 * Math.random());
  const jitter = current * 0.3 * (Math.random() * 2 - 1);
  return Math.max(0, Math.min(opts.maxDelayMs, Math.round(current + jitter)));
}

export async function retryWithBackoff<T>(fn: (attempt: number) => Promise<T>, opts: RetryOptions): Promise<T> {
  let delay = opts.initialDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      if (attempt >= opts.maxAttempts || !isRetryable(err, opts.retryFetchErrors)) throw err;
      const server = serverRetryDelayMs(err);
      if (server !== undefined && server > MAX_SERVER_DELAY_MS) throw err;
      const wait = nextDelay(delay, err, opts);
      opts.onRetry?.({ attempt, maxAttempts: opts.maxAttempts, delayMs: wait, reason: describeError(err) });
      await sleep(wait, opts.signal);
      delay = Math.min(opts.maxDelayMs, delay * 2);
    }
  }
}

export { sleep };
