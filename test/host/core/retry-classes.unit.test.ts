import { describe, expect, it } from 'vitest';
import { apiErrorText, isAuthStatus } from '../../../host/core/api-error-text.js';
import {
  describeError,
  isQuotaExhausted,
  isRetryable,
  nextDelay,
  serverRetryDelayMs,
} from '../../../host/core/retry.js';

/** The shape @google/genai throws: `status` plus the raw JSON body as the message. */
const apiError = (status: number, message: string, details?: unknown[]) =>
  Object.assign(new Error(JSON.stringify({ error: { code: status, message, ...(details ? { details } : {}) } })), {
    status,
  });
const netError = (code: string) =>
  Object.assign(new TypeError('fetch failed'), {
    cause: Object.assign(new Error(`connect ${code} 127.0.0.1:1`), { code }),
  });
const retryInfo = (d: string) => [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: d }];

describe('which model errors are retried', () => {
  it.each([429, 499, 500, 503])('%i is retried', (s) => expect(isRetryable(apiError(s, 'x'))).toBe(true));
  it.each([400, 401, 403, 404])('%i is never retried', (s) => expect(isRetryable(apiError(s, 'x'))).toBe(false));

  it('network codes are retried through the cause chain; aborts are not', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'ENOTFOUND'])
      expect(isRetryable(netError(code))).toBe(true);
    expect(isRetryable(Object.assign(new Error('aborted'), { name: 'AbortError' }))).toBe(false);
    expect(isRetryable(new Error('fetch failed'), false)).toBe(false); // general.retryFetchErrors: false
  });

  it('a per-day quota or limit 0 is terminal', () => {
    expect(isRetryable(apiError(429, 'Quota exceeded for GenerateRequestsPerDayPerProjectPerModel'))).toBe(false);
    expect(isRetryable(apiError(429, 'Quota exceeded, limit: 0'))).toBe(false);
  });

  it('a 429 whose reason is a used-up quota or capacity is one a fallback model can take; a rate limit is not', () => {
    const info = (reason: string) => [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason }];
    const daily = [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'x-Daily' }] }];
    expect(isQuotaExhausted(apiError(429, 'x', info('QUOTA_EXHAUSTED')))).toBe(true);
    expect(isQuotaExhausted(apiError(429, 'x', info('MODEL_CAPACITY_EXHAUSTED')))).toBe(true);
    expect(isQuotaExhausted(apiError(429, 'x', daily))).toBe(true);
    expect(isQuotaExhausted(apiError(429, 'You have exhausted your capacity on this model.'))).toBe(true);
    expect(isQuotaExhausted(apiError(429, 'Quota exceeded, limit: 0'))).toBe(true);
    expect(isRetryable(apiError(429, 'x', info('QUOTA_EXHAUSTED')))).toBe(false);
    expect(isQuotaExhausted(apiError(429, 'Resource has been exhausted', retryInfo('2s')))).toBe(false);
    expect(isQuotaExhausted(apiError(429, 'x', info('RATE_LIMIT_EXCEEDED')))).toBe(false);
    expect(isQuotaExhausted(apiError(503, 'x', info('QUOTA_EXHAUSTED')))).toBe(false);
  });

  it('the server delay (RetryInfo or "Please retry in") raises the wait to at least that, plus at most 20%', () => {
    expect(serverRetryDelayMs(apiError(429, 'x', retryInfo('2s')))).toBe(2000);
    expect(serverRetryDelayMs(apiError(429, 'Please retry in 1.5s.'))).toBe(1500);
    for (let i = 0; i < 20; i++) {
      const d = nextDelay(100, apiError(429, 'x', retryInfo('2s')), { maxDelayMs: 30_000 });
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(2400);
      const plain = nextDelay(1000, apiError(503, 'x'), { maxDelayMs: 30_000 });
      expect(plain).toBeGreaterThanOrEqual(700);
      expect(plain).toBeLessThanOrEqual(1300);
    }
  });

  it('error texts name the cause and what to check', () => {
    expect(describeError(netError('ECONNREFUSED'))).toBe('fetch failed (connect ECONNREFUSED 127.0.0.1:1)');
    expect(apiErrorText(apiError(403, 'Permission denied'), 'm')).toMatch(
      /^\[403\] Permission denied\n.*GEMINI_API_KEY/,
    );
    expect(apiErrorText(apiError(500, 'boom'), 'm')).toBe('[500] boom');
    expect([401, 403].map(isAuthStatus)).toEqual([true, true]);
    expect([400, 404, 429, undefined].map(isAuthStatus)).toEqual([false, false, false, false]);
  });
});
