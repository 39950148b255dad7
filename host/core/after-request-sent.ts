import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { MODEL_REQUEST_SENT } from './model-fetch.js';

/**
 * Where a request's written body is announced: by undici (Node's fetch) and by the model client's own
 * fetch (model-fetch.ts).
 */
const BODY_SENT = ['undici:request:bodySent', MODEL_REQUEST_SENT];

/**
 * Runs `fn` once, when the next request has been written out, or after `fallbackMs` should none be
 * announced (a model client with a fetch of its own). Work started then overlaps with the wait for the
 * answer instead of delaying the request.
 */
export function afterNextRequestSent(fn: () => void, fallbackMs = 1000): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    for (const name of BODY_SENT) unsubscribe(name, once);
    fn();
  };
  const timer = setTimeout(once, fallbackMs);
  timer.unref();
  for (const name of BODY_SENT) subscribe(name, once);
}
