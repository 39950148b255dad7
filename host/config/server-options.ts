/**
 * Folds `mcpServerOptions.<alias>` into the `mcpServers` entry of that alias (a user's, a workspace's or an
 * extension's): what the rest of the host reads is one entry. A key written in the entry itself wins; an
 * alias with no entry is left alone (it names no server).
 */
export function applyServerOptions(merged: Record<string, unknown>): void {
  const options = merged.mcpServerOptions as Record<string, Record<string, unknown>> | undefined;
  const servers = merged.mcpServers as Record<string, Record<string, unknown>> | undefined;
  if (!options || !servers) return;
  const out: Record<string, unknown> = Object.assign(Object.create(null), servers);
  for (const [alias, opts] of Object.entries(options)) {
    if (!Object.hasOwn(servers, alias)) continue;
    out[alias] = { ...opts, ...servers[alias] };
  }
  merged.mcpServers = out;
}
