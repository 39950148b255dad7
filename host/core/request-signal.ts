/**
 * A signal for one model request that aborts with `parent` and lets go of it when disposed.
 * @google/genai leaves its abort listener on the signal it was given once a response succeeds, so
 * handing it the turn's long-lived signal adds one listener per request (Node warns after ten). The SDK
 * gets this short-lived child instead.
 */
export function requestSignal(parent: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return { signal: child.signal, dispose: () => {} };
  }
  const onAbort = () => child.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { signal: child.signal, dispose: () => parent.removeEventListener('abort', onAbort) };
}

/** Runs `fn` with a request signal derived from `parent`, disposed when it settles. */
export async function withRequestSignal<T>(
  parent: AbortSignal | undefined,
  fn: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!parent) return fn(undefined);
  const req = requestSignal(parent);
  try {
    return await fn(req.signal);
  } finally {
    req.dispose();
  }
}
