import { describeError, EndpointUnreachableError, httpStatusOf, networkCause } from './retry.js';

/** 401 / 403: the key or project was refused; waiting or retrying will not help. */
export function isAuthStatus(status: number | undefined): boolean {
  return status === 401 || status === 403;
}

/**
 * The final error text of a failed model request, written so the user knows what to do next: the
 * server's own message plus, for the classes that have one, the setting to check.
 */
export function apiErrorText(err: unknown, model: string): string {
  const status = httpStatusOf(err);
  const base = describeError(err);
  if (isAuthStatus(status)) {
    return `${base}\nThe Gemini API refused the credentials: check GEMINI_API_KEY (or GOOGLE_API_KEY), or the Vertex AI project and location.`;
  }
  if (status === 404) {
    return `${base}\nModel "${model}" is not available: choose another with -m, GEMINI_MODEL or the model.name setting.`;
  }
  if (status === 429) return `${base}\nThe quota is exhausted: wait and try again, or use another model or API key.`;
  if (err instanceof EndpointUnreachableError) {
    return `${err.message}\nCould not reach the Gemini API: check the network connection, that the endpoint is up and the address is right (GOOGLE_GEMINI_BASE_URL or GOOGLE_VERTEX_BASE_URL if set), and any proxy (HTTPS_PROXY).`;
  }
  if (status === undefined && networkCause(err)) {
    return `${base}\nCould not reach the Gemini API: check the network connection (and GOOGLE_GEMINI_BASE_URL if set).`;
  }
  return base;
}
