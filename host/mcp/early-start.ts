import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * Spawns a stdio server's process now, before its SDK client is built. Building the client (its request
 * handlers' schemas, its capabilities) takes the host's thread a few milliseconds that the child's own
 * start, tens of milliseconds on another core, can hide. The client's `connect` later calls `start`
 * and gets the same spawn's outcome; what the transport reported in between (a message, an error, its
 * close) reaches the client's handlers then, in order, so a server that died at once still fails the
 * connection at once.
 */
export function startNow(t: StdioClientTransport): void {
  const early: Array<() => void> = [];
  let attached = false;
  // A handler set before this one (the sandbox's clean-up on close) keeps running, before and after.
  const own = { onclose: t.onclose, onerror: t.onerror, onmessage: t.onmessage };
  t.onmessage = (message) => {
    if (attached) own.onmessage?.(message);
    else early.push(() => t.onmessage?.(message));
  };
  t.onerror = (error) => {
    if (attached) own.onerror?.(error);
    else early.push(() => t.onerror?.(error));
  };
  t.onclose = () => {
    if (attached) own.onclose?.();
    else early.push(() => t.onclose?.());
  };
  const started = t.start();
  // A failed spawn is reported by `connect`, which awaits this same promise.
  started.catch(() => undefined);
  t.start = async () => {
    try {
      await started;
    } finally {
      // `connect` has put the client's handlers in place (they call the ones above first).
      attached = true;
      for (const replay of early.splice(0)) replay();
    }
  };
}
