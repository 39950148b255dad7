import { RESERVED_SERVER_NAMES } from '../config/server-names.js';
import { safeText } from '../safe-text.js';
import type { ExtensionSet } from './loader.js';

/**
 * Enabled extensions add their MCP servers (a settings.json entry of the same name wins) and their
 * `excludeTools` (to tools.exclude). Returns which server names came from which extension.
 */
export function mergeExtensions(
  merged: Record<string, unknown>,
  set: ExtensionSet,
  warnings: string[],
  notices: string[],
): Record<string, string> {
  // Null-prototype objects: server names such as `constructor` or `__proto__` are plain names here.
  const from: Record<string, string> = Object.create(null);
  const servers: Record<string, unknown> = Object.assign(
    Object.create(null),
    (merged.mcpServers as Record<string, unknown> | undefined) ?? {},
  );
  const exclude: string[] = [];
  for (const ext of set.extensions) {
    if (!ext.enabled) continue;
    for (const [name, server] of Object.entries(ext.mcpServers)) {
      // A user's own entry may replace a built-in; a third party's extension may not take its place.
      if (RESERVED_SERVER_NAMES.includes(name)) {
        notices.push(
          `MCP server "${safeText(name)}" of extension ${safeText(ext.name)} is not started: "${safeText(name)}" is ` +
            'the name of a built-in server, which an extension may not replace (its author can rename it).',
        );
        continue;
      }
      if (Object.hasOwn(servers, name)) {
        warnings.push(
          Object.hasOwn(from, name)
            ? `MCP server "${name}" of extension ${ext.name} is skipped: extension ${from[name]} already defines it`
            : `MCP server "${name}" of extension ${ext.name} is skipped: settings.json defines a server of that name`,
        );
        continue;
      }
      servers[name] = server;
      from[name] = ext.name;
    }
    exclude.push(...ext.excludeTools);
  }
  if (Object.keys(from).length) merged.mcpServers = servers;
  if (exclude.length) {
    const tools = { ...((merged.tools as Record<string, unknown> | undefined) ?? {}) };
    tools.exclude = [...new Set([...((tools.exclude as string[] | undefined) ?? []), ...exclude])];
    merged.tools = tools;
  }
  return from;
}
