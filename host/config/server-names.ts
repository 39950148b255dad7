import { createHash } from 'node:crypto';
import { SEPARATOR } from '../../protocol/tool-names.js';

export const BUILTIN_ALIASES = ['filesystem', 'shell', 'web', 'memory'] as const;
export const DISCOVERY_ALIAS = 'discovered';
/** Names the host's own servers take: the built-ins, the discovery bridge and `mcp.serverCommand`'s. */
export const RESERVED_SERVER_NAMES: readonly string[] = [...BUILTIN_ALIASES, DISCOVERY_ALIAS, 'mcp'];

/**
 * Server names and the tool-name prefixes derived from them: any name a client accepts is accepted; the
 * prefix is the name when it is valid as written, else a sanitised, unique and stable form of it.
 */
const ALIAS = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** Why a name cannot be used as a tool-name prefix as written, or undefined when it can. */
export function validateAlias(alias: string): string | undefined {
  if (!ALIAS.test(alias)) {
    return `MCP server alias "${alias}" is invalid: it must start with a letter and contain only letters, digits, "_" and "-"`;
  }
  if (alias.includes(SEPARATOR)) {
    return `MCP server alias "${alias}" is invalid: it must not contain "__" (the separator in "<server>__<tool>" tool names)`;
  }
  if (alias.endsWith('_')) return `MCP server alias "${alias}" is invalid: it must not end with "_"`;
  return undefined;
}

/** A usable prefix made from any name: other characters become `_`, runs of `_` collapse, ends trimmed. */
function sanitizePrefix(name: string): string {
  const base = name
    .replace(/[^A-Za-z0-9_-]/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^[_-]+|_+$/g, '');
  if (!base) return 'server';
  return /^[A-Za-z]/.test(base) ? base : `s_${base}`;
}

/**
 * Tool-name prefixes for server names as other clients write them (`brave.search`, `My Tools`, `a__b`).
 * A valid name is its own prefix, so existing configurations keep their tool names. Any other name is
 * sanitised; when that collides with another server's prefix (built-ins included), 6 hex digits of a
 * SHA-256 of the original name are appended — stable, whatever else is configured.
 */
export function toolPrefixes(
  names: readonly string[],
  reserved: readonly string[] = RESERVED_SERVER_NAMES,
): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set([...reserved, ...names.filter((n) => !validateAlias(n))]);
  for (const name of names) {
    if (!validateAlias(name)) {
      out.set(name, name);
      continue;
    }
    let prefix = sanitizePrefix(name);
    if (taken.has(prefix)) prefix = `${prefix}_${createHash('sha256').update(name).digest('hex').slice(0, 6)}`;
    taken.add(prefix);
    out.set(name, prefix);
  }
  return out;
}

/**
 * The start-up notice for user entries that took a built-in's place without `"replaceBuiltin": true`.
 * Rule: the user's entry wins and keeps working under that name; the built-in is not started.
 */
export function builtinReplacementNotice(
  servers: readonly { alias: string; replacesBuiltin?: string }[],
): string | undefined {
  const silent = servers.filter((s) => s.replacesBuiltin === 'silently').map((s) => s.alias);
  if (silent.length === 0) return undefined;
  const list = silent.map((a) => `"${a}"`).join(', ');
  return (
    `Your mcpServers ${silent.length === 1 ? 'entry' : 'entries'} ${list} replace${silent.length === 1 ? 's' : ''} the built-in ` +
    `${silent.length === 1 ? 'server' : 'servers'} of the same name: the built-in ${silent.length === 1 ? 'is' : 'are'} not started. ` +
    'To keep both, rename your entry; to keep yours and silence this, add "replaceBuiltin": true to it.'
  );
}
