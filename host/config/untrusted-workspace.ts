/**
 * What an untrusted folder's `.gemini/settings.json` may set, in one place: an allow-list, so a key added
 * later (ours or Gemini CLI's) is dropped until someone decides it is harmless. Kept: appearance and
 * model choices, and keys that only narrow what runs (tools.core, tools.exclude, mcp.excluded, turning
 * the sandbox on, disableYoloMode). Dropped: everything that starts a process, widens what runs without
 * asking, reaches outside the folder (context file names are searched up to the home folder), or turns a
 * protection of the user's own setup off — hooks and their switches (`hooksConfig.enabled: false`,
 * `hooksConfig.disabled`, the older `hooks.enabled` / `hooks.disabled`) among them.
 */

type Layer = Record<string, unknown>;

const isObject = (v: unknown): v is Layer => !!v && typeof v === 'object' && !Array.isArray(v);

/** A dotted path an untrusted folder may set, with the values allowed there (any when absent). */
const UNTRUSTED_MAY_SET: ReadonlyArray<[path: string, allowed?: (v: unknown) => boolean]> = [
  ['$schema'],
  ['ui'],
  ['output.format'],
  ['model.name'],
  ['model.maxSessionTurns'],
  ['model.compressionThreshold'],
  // The approval mode may only stay at, or go below, asking for everything.
  ['general.defaultApprovalMode', (v) => v === 'default' || v === 'plan'],
  ['general.maxAttempts'],
  ['general.retryFetchErrors'],
  ['general.checkpointing'],
  ['general.vimMode'],
  ['tools.core'],
  ['tools.exclude'],
  ['tools.confirmationRequired'],
  ['tools.truncateToolOutputThreshold'],
  // More secrets hidden from sandboxed commands only narrows what they read.
  ['tools.sandboxSecrets'],
  // The folder may turn the sandbox on, never off or into something else: any other value ("off", "",
  // a variable that expands to nothing) would override the user's own setting.
  ['tools.sandbox', (v) => v === true],
  ['mcp.excluded'],
  ['security.disableYoloMode', (v) => v === true],
  ['security.environmentVariableRedaction.blocked'],
];

export interface FilteredWorkspace {
  layer: Layer;
  /** Human-readable names of what was dropped, e.g. `mcpServers (evil, helper)`, `tools.allowed`. */
  skipped: string[];
  /** Server names from the dropped `mcpServers`. */
  servers: string[];
}

const rule = (path: string) => UNTRUSTED_MAY_SET.find(([p]) => p === path);
const leadsToRule = (path: string) => UNTRUSTED_MAY_SET.some(([p]) => p.startsWith(`${path}.`));

/** Copies what `layer` (at `prefix`) may set into a new object; names the rest in `skipped`. */
function keepAllowed(layer: Layer, prefix: string, skipped: string[]): Layer | undefined {
  const out: Layer = {};
  for (const [key, value] of Object.entries(layer)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const r = rule(path);
    if (r) {
      if (!r[1] || r[1](value)) out[key] = value;
      else skipped.push(`${path} (${JSON.stringify(value)})`);
    } else if (isObject(value) && (leadsToRule(path) || (!prefix && key !== 'hooks'))) {
      // A group is named key by key (`context.includeDirectories`); `hooks` as one (its events are listed
      // with a count by the runtime).
      const inner = keepAllowed(value, path, skipped);
      if (inner) out[key] = inner;
    } else skipped.push(path);
  }
  return Object.keys(out).length ? out : undefined;
}

/** The workspace layer minus what only a trusted folder may set (v1 key names already upgraded). */
export function filterUntrustedWorkspace(layer: Layer): FilteredWorkspace {
  const { mcpServers, ...rest } = layer;
  const skipped: string[] = [];
  const servers = isObject(mcpServers) ? Object.keys(mcpServers) : [];
  if (servers.length) skipped.push(`mcpServers (${servers.join(', ')})`);
  return { layer: keepAllowed(rest, '', skipped) ?? {}, skipped, servers };
}

/** Folder trust is the user's setting: a workspace cannot switch it off for itself. */
export function withoutFolderTrustKey(layer: Layer): Layer {
  const security = layer.security;
  if (!isObject(security) || !('folderTrust' in security)) return layer;
  const { folderTrust: _ignored, ...rest } = security;
  return { ...layer, security: rest };
}
