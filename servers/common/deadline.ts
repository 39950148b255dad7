/**
 * Runs `work` with a signal that aborts when `parent` aborts or after `ms`. Built from a plain
 * AbortController and a timer held for the whole run: on Node 20 a signal made by
 * `AbortSignal.any([.., AbortSignal.timeout(ms)])` can be garbage-collected while a request waits,
 * and then the timeout never fires.
 */
export async function withDeadline<T>(
  parent: AbortSignal,
  ms: number,
  work: (signal: AbortSignal, timedOut: () => boolean) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`Timed out after ${ms} ms`, 'TimeoutError'));
  }, ms);
  const onAbort = () => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  try {
    return await work(controller.signal, () => expired);
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', onAbort);
  }
}
