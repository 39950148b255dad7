import { subscribe, unsubscribe } from 'node:diagnostics_channel';

/** undici (Node's fetch, and the Gemini SDK's requests) publishes here once a request's body is written. */
const BODY_SENT = 'undici:request:bodySent';

/**
 * Runs `fn` once, when the next fetch request has been written out, or after `fallbackMs` should no such
 * request come (a model client that does not go through undici). Work started then overlaps with the
 * wait for the answer instead of delaying the request.
 */
export function afterNextRequestSent(fn: () => void, fallbackMs = 1000): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    unsubscribe(BODY_SENT, once);
    fn();
  };
  const timer = setTimeout(once, fallbackMs);
  timer.unref();
  subscribe(BODY_SENT, once);
}
