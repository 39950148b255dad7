import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callAsTask, needsTask } from './task-call.js';
import type { ServerConnection } from './connection.js';
import { McpCallError, withTail } from './errors.js';
import type { InFlight, Slot } from './server-slot.js';
import type { Supervisor } from './supervisor.js';
import { PausableTimer } from './timer.js';
import { changesNothing, looksLikeConnectionLoss } from './tool-filter.js';
import type { CallOptions } from './types.js';
import { settleSoon } from './util.js';

function cancelled(alias: string, toolName: string, why = ''): McpCallError {
  return new McpCallError('cancelled', `Call to '${toolName}' on MCP server '${alias}' was cancelled${why}`, alias);
}

/** One `tools/call` on the server's live connection, bounded by the call timeout and the caller's signal. */
export async function callOnce(
  sup: Supervisor,
  slot: Slot,
  toolName: string,
  args: Record<string, unknown>,
  opts: CallOptions,
): Promise<CallToolResult> {
  const alias = slot.config.alias;
  if (opts.signal?.aborted) throw cancelled(alias, toolName);
  const timeoutMs = opts.timeoutMs ?? slot.config.timeoutMs;
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  // Started before waiting for a (re)connection: the call's timeout bounds that wait too.
  const call: InFlight = {
    timer: new PausableTimer(timeoutMs, () => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }),
  };
  const done = () => {
    call.timer.clear();
    slot.calls.delete(call);
    opts.signal?.removeEventListener('abort', onAbort);
  };
  let conn: ServerConnection;
  let early: boolean;
  const cold = !slot.conn && !!slot.cached;
  try {
    // Connected (nearly every call): no wait to bound, and no listener and promise to set up around it.
    if (slot.conn) ({ conn, early } = { conn: slot.conn, early: false });
    else ({ conn, early } = await untilAborted(whenCallable(sup, slot, toolName), controller.signal));
  } catch (err) {
    done();
    if (timedOut)
      throw new McpCallError(
        'not_connected',
        `MCP server '${alias}' was not ready within the ${timeoutMs} ms timeout of '${toolName}' (${slot.error ?? slot.status})`,
        alias,
      );
    if (opts.signal?.aborted) throw cancelled(alias, toolName);
    if (err instanceof McpCallError) throw err;
    throw new McpCallError('not_connected', `MCP server '${alias}' is not connected: ${(err as Error).message}`, alias);
  }
  // A call sent early is checked against the live list only if it fails (it changed nothing either way).
  if (cold && !early && !offers(conn, toolName)) {
    done();
    throw staleTool(alias, toolName);
  }
  if (slot.openElicitations > 0) call.timer.pause();
  slot.calls.add(call);
  try {
    // A raw request rather than client.callTool: that one throws on outputSchema mismatches, which the
    // host wants to treat as an ordinary (bad) result, not a protocol failure.
    if (!early && needsTask(conn.tools, toolName)) {
      return await callAsTask(conn.client, toolName, args, {
        signal: controller.signal,
        meta: opts.meta,
        onProgress: opts.onProgress,
      });
    }
    const result = await conn.client.request(
      { method: 'tools/call', params: { name: toolName, arguments: args, ...(opts.meta ? { _meta: opts.meta } : {}) } },
      CallToolResultSchema,
      {
        signal: controller.signal,
        // The host timer above is the real bound; the SDK's must never fire first.
        timeout: 2 ** 31 - 1,
        ...(opts.onProgress ? { onprogress: (p) => opts.onProgress!(p) } : {}),
      },
    );
    // A tool the server does not know fails; only then does the answer wait for the list to tell why.
    if (early && result.isError && (await listedWithout(slot, conn, toolName))) throw staleTool(alias, toolName);
    return result as CallToolResult;
  } catch (err) {
    if (err instanceof McpCallError && err.kind === 'unknown_tool') throw err;
    // Not when the caller cancelled: the answer to Esc must not wait for a tool list.
    if (early && !timedOut && !opts.signal?.aborted && (await listedWithout(slot, conn, toolName)))
      throw staleTool(alias, toolName);
    if (timedOut) {
      throw new McpCallError(
        'timeout',
        `MCP server '${alias}': tool '${toolName}' timed out after ${timeoutMs} ms (the server was sent a cancellation)`,
        alias,
      );
    }
    throw await classifyFailure(sup, slot, conn, toolName, err, opts);
  } finally {
    done();
  }
}

/**
 * The connection a call of `toolName` may go out on. A server starting for its first use takes a call that
 * changes nothing (read-only by an annotation we believe, in the cached listing the model was given) as
 * soon as it is initialized, while its tool list is still on its way: the list's round trip and the
 * registry update after it no longer delay the first call. Every other call waits for the listing.
 */
function whenCallable(
  sup: Supervisor,
  slot: Slot,
  toolName: string,
): Promise<{ conn: ServerConnection; early: boolean }> {
  const listed = (conn: ServerConnection) => ({ conn, early: false });
  if (slot.conn) return Promise.resolve(listed(slot.conn));
  const cached = slot.cached && !slot.connectedAt ? slot.cached.tools : undefined;
  const full = sup.ensureConnected(slot).then(listed);
  const initialized = slot.initialized;
  if (!cached || !initialized || !changesNothing(slot.config, cached, toolName) || needsTask(cached, toolName))
    return full;
  return Promise.race([full, initialized.then((conn) => (conn && slot.conn !== conn ? { conn, early: true } : full))]);
}

/** Whether the live list of a connection that a call went out on early lacks the tool (false if unknown). */
async function listedWithout(slot: Slot, conn: ServerConnection, toolName: string): Promise<boolean> {
  await slot.connecting?.catch(() => undefined);
  return slot.conn === conn && !offers(conn, toolName);
}

function offers(conn: ServerConnection, toolName: string): boolean {
  return !conn.client.getServerCapabilities()?.tools || conn.tools.some((t) => t.name === toolName);
}

function staleTool(alias: string, toolName: string): McpCallError {
  // The registry has been rebuilt from the live list by now.
  return new McpCallError(
    'unknown_tool',
    `MCP server '${alias}' no longer offers the tool '${toolName}' (it was declared from a cached tool list that is now out of date; the list has been refreshed).`,
    alias,
  );
}

/** Rejects as soon as the signal fires; the awaited work goes on for whoever else waits for it. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Why a call without a timeout failed: the caller cancelled, the server went away, or a protocol fault. */
async function classifyFailure(
  sup: Supervisor,
  slot: Slot,
  conn: ServerConnection,
  toolName: string,
  err: unknown,
  opts: CallOptions,
): Promise<McpCallError> {
  const alias = slot.config.alias;
  if (opts.signal?.aborted) return cancelled(alias, toolName);
  if (sup.closed) return cancelled(alias, toolName, ': the session is closing');
  if (conn.kind === 'http' && (await isSessionGone(err))) {
    // The server restarted or expired our session; it refused the call without running it.
    if (slot.conn === conn) sup.lost(slot, conn, 'the server no longer knows our session (HTTP 404)', true);
    const failure = new McpCallError(
      'crashed',
      `MCP server '${alias}' no longer knows the session of the call to '${toolName}' (HTTP 404); reconnecting.`,
      alias,
    );
    failure.notDelivered = true;
    return failure;
  }
  if (conn.lostReason || looksLikeConnectionLoss(err)) {
    // Remote transports do not always report the loss through onclose.
    if (!conn.lostReason && slot.conn === conn) sup.lost(slot, conn, `connection lost: ${(err as Error).message}`);
    await settleSoon();
    const what = conn.kind === 'stdio' ? 'crashed' : 'lost its connection';
    const message = `MCP server '${alias}' ${what} during the call to '${toolName}' (${conn.lostReason ?? (err as Error).message}); it is being restarted.`;
    return new McpCallError('crashed', withTail(message, slot.stderr.text()), alias);
  }
  return new McpCallError(
    'protocol',
    `MCP server '${alias}' failed the call to '${toolName}': ${(err as Error).message}`,
    alias,
  );
}

/**
 * A Streamable HTTP 404: the server no longer knows our session. The SDK module is loaded already when
 * an HTTP connection exists; importing it here keeps it out of sessions of stdio servers only.
 */
async function isSessionGone(err: unknown): Promise<boolean> {
  const { StreamableHTTPError } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  return err instanceof StreamableHTTPError && err.code === 404;
}
