/**
 * What an untrusted folder's `.gemini/settings.json` may not do. Everything that starts a process, widens
 * what runs without asking, or reaches outside the folder is dropped; keys that only narrow (tools.core,
 * tools.exclude, mcp.excluded, disableYoloMode) or choose harmless options (model, retries) stay.
 */

type Layer = Record<string, unknown>;

const isObject = (v: unknown): v is Layer => !!v && typeof v === 'object' && !Array.isArray(v);

/** `group.key` entries an untrusted workspace loses; `mcpServers` is handled on its own to name the servers. */
const DROPPED: ReadonlyArray<[group: string, key: string]> = [
  ['mcp', 'serverCommand'],
  ['mcp', 'allowed'],
  ['tools', 'discoveryCommand'],
  ['tools', 'callCommand'],
  ['tools', 'allowed'],
  // The sandbox only narrows; these two widen what it lets through.
  ['tools', 'sandboxAutoApprove'],
  ['tools', 'sandboxNetwork'],
  ['context', 'includeDirectories'],
  // Which program Ctrl+G starts is the user's choice, not a cloned folder's.
  ['general', 'preferredEditor'],
];

export interface FilteredWorkspace {
  layer: Layer;
  /** Human-readable names of what was dropped, e.g. `mcpServers (evil, helper)`, `tools.allowed`. */
  skipped: string[];
  /** Server names from the dropped `mcpServers`. */
  servers: string[];
}

/** The workspace layer minus what only a trusted folder may set (v1 key names already upgraded). */
export function filterUntrustedWorkspace(layer: Layer): FilteredWorkspace {
  const out: Layer = { ...layer };
  const skipped: string[] = [];
  let servers: string[] = [];
  if (isObject(out.mcpServers)) {
    servers = Object.keys(out.mcpServers);
    if (servers.length) skipped.push(`mcpServers (${servers.join(', ')})`);
  }
  delete out.mcpServers;
  for (const [group, key] of DROPPED) {
    const g = out[group];
    if (!isObject(g) || !(key in g)) continue;
    const { [key]: _dropped, ...rest } = g;
    out[group] = rest;
    skipped.push(`${group}.${key}`);
  }
  const tools = out.tools;
  if (isObject(tools) && 'sandbox' in tools && tools.sandbox !== true) {
    // The folder may turn the sandbox on, never off or into something else: any other value ("off", "",
    // a variable that expands to nothing) would override the user's own setting.
    const { sandbox: _off, ...rest } = tools;
    out.tools = rest;
    skipped.push(`tools.sandbox (${JSON.stringify(tools.sandbox)})`);
  }
  const general = out.general;
  if (isObject(general) && general.defaultApprovalMode !== undefined && general.defaultApprovalMode !== 'default') {
    const { defaultApprovalMode: _mode, ...rest } = general;
    out.general = rest;
    skipped.push(`general.defaultApprovalMode (${String(general.defaultApprovalMode)})`);
  }
  const security = out.security;
  if (
    isObject(security) &&
    isObject(security.environmentVariableRedaction) &&
    'allowed' in security.environmentVariableRedaction
  ) {
    const { allowed: _allowed, ...redaction } = security.environmentVariableRedaction;
    out.security = { ...security, environmentVariableRedaction: redaction };
    skipped.push('security.environmentVariableRedaction.allowed');
  }
  return { layer: out, skipped, servers };
}

/** Folder trust is the user's setting: a workspace cannot switch it off for itself. */
export function withoutFolderTrustKey(layer: Layer): Layer {
  const security = layer.security;
  if (!isObject(security) || !('folderTrust' in security)) return layer;
  const { folderTrust: _ignored, ...rest } = security;
  return { ...layer, security: rest };
}
