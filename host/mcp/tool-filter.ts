import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import { parseToolPattern } from '../config/tool-pattern.js';

function listed(list: string[] | undefined, name: string): boolean {
  return !!list?.some((p) => parseToolPattern(p).name === name);
}

/** `includeTools` / `excludeTools` on the server's original names; exclude wins. */
export function filterTools(tools: Tool[], config: ResolvedServerConfig): Tool[] {
  return tools.filter((t) => {
    if (listed(config.excludeTools, t.name)) return false;
    return !config.includeTools || listed(config.includeTools, t.name);
  });
}

/**
 * Whether a call of `toolName` cannot change anything: read-only by its annotation in `tools`. Annotations
 * are hints; only servers we ship or the user trusts are believed. Such a call may be replayed after a crash
 * and may go out before a starting server's tool list is back.
 */
export function changesNothing(config: ResolvedServerConfig, tools: Tool[], toolName: string): boolean {
  if (!config.builtIn && !config.trust) return false;
  return tools.find((t) => t.name === toolName)?.annotations?.readOnlyHint === true;
}

/** Includes HTTP 404: a Streamable HTTP server that restarted no longer knows our session id. */
export function looksLikeConnectionLoss(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return /Connection closed|Not connected|fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|EPIPE|HTTP 404/i.test(
    msg,
  );
}
