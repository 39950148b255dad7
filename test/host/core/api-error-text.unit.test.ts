import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { apiErrorText, isAuthStatus } from '../../../host/core/api-error-text.js';
import { EndpointUnreachableError } from '../../../host/core/retry.js';

/** An error as the SDK throws it for an HTTP failure: the status, and the body's JSON in the message. */
const apiError = (status: number, message: string) =>
  new ApiError({ status, message: `got status: ${status}. ${JSON.stringify({ error: { code: status, message } })}` });

describe('isAuthStatus', () => {
  it('401 and 403 only', () => {
    expect([400, 401, 403, 404, 429, undefined].map(isAuthStatus)).toEqual([false, true, true, false, false, false]);
  });
});

describe('apiErrorText', () => {
  it("a refused key: the server's message, then what to check", () => {
    for (const status of [401, 403])
      expect(apiErrorText(apiError(status, 'API key not valid.'), 'gemini-x')).toBe(
        `[${status}] API key not valid.\nThe Gemini API refused the credentials: check GEMINI_API_KEY (or GOOGLE_API_KEY), or the Vertex AI project and location.`,
      );
  });

  it('an unknown model names it and the ways to choose another', () => {
    expect(apiErrorText(apiError(404, 'models/gemini-x is not found'), 'gemini-x')).toBe(
      '[404] models/gemini-x is not found\nModel "gemini-x" is not available: choose another with -m, GEMINI_MODEL or the model.name setting.',
    );
  });

  it('an exhausted quota says to wait or switch', () => {
    expect(apiErrorText(apiError(429, 'Quota exceeded'), 'm')).toBe(
      '[429] Quota exceeded\nThe quota is exhausted: wait and try again, or use another model or API key.',
    );
  });

  it('an unreachable endpoint names it, the cause, and the settings that move it', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const err = new EndpointUnreachableError('http://127.0.0.1:9', new TypeError('fetch failed', { cause }));
    const text = apiErrorText(err, 'm');
    expect(text).toBe(
      'Cannot reach the Gemini API at http://127.0.0.1:9 (connect ECONNREFUSED 127.0.0.1:9).\nCould not reach the Gemini API: check the network connection, that the endpoint is up and the address is right (GOOGLE_GEMINI_BASE_URL or GOOGLE_VERTEX_BASE_URL if set), and any proxy (HTTPS_PROXY).',
    );
  });

  it('a bare network failure shows the hidden cause and what to check', () => {
    const err = new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND example.invalid') });
    expect(apiErrorText(err, 'm')).toBe(
      'fetch failed (getaddrinfo ENOTFOUND example.invalid)\nCould not reach the Gemini API: check the network connection (and GOOGLE_GEMINI_BASE_URL if set).',
    );
  });

  it('anything else is the message alone, with its status', () => {
    expect(apiErrorText(apiError(500, 'Internal error'), 'm')).toBe('[500] Internal error');
    expect(apiErrorText(new Error('stream ended early'), 'm')).toBe('stream ended early');
    expect(apiErrorText('plain string', 'm')).toBe('plain string');
  });
});
