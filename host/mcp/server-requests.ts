import type { ElicitationHandler } from './types.js';
import { ClientRequests } from './client-requests.js';
import type { Slot } from './server-slot.js';
import type { ClientHooks } from './supervisor.js';

/**
 * The requests one server sends to us. Roots come from the session; our own servers' typed
 * confirmations go to the approval broker; any other elicitation is a form for the user, and sampling
 * goes to the model after approval.
 */
export function serverRequestHooks(
  slot: Slot,
  deps: { roots: () => string[]; requests: ClientRequests; confirmations: () => ElicitationHandler | undefined },
): ClientHooks {
  const alias = slot.config.alias;
  return {
    roots: deps.roots,
    elicit: (params, signal) => {
      if (!ClientRequests.isConfirmation(params))
        return whileAsking(slot, () => deps.requests.elicit(alias, params, signal));
      const handler = deps.confirmations();
      if (!handler) return Promise.resolve({ action: 'cancel' as const });
      return whileAsking(slot, () => handler(alias, params, signal));
    },
    sample: (params, signal) => whileAsking(slot, () => deps.requests.createMessage(alias, params, signal)),
    // Only our own servers, which check every path against the workspace first, see the editor's buffers.
    editorFiles: slot.config.builtIn ? deps.requests.editorFiles : undefined,
  };
}

/** The user (or the model, for sampling) may take minutes: no call of this server times out meanwhile. */
async function whileAsking<T>(slot: Slot, ask: () => Promise<T>): Promise<T> {
  if (slot.openElicitations++ === 0) for (const c of slot.calls) c.timer.pause();
  try {
    return await ask();
  } finally {
    if (--slot.openElicitations === 0) for (const c of slot.calls) c.timer.resume();
  }
}
