import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-file.js';
import { readConfigFile } from './config-file.js';

/**
 * MCP servers switched off with `mcp disable`, in Gemini CLI 0.61's file and format:
 * `~/.gemini/mcp-server-enablement.json`, `{ "<name, lower case>": { "enabled": false } }`. A server not
 * in the file is enabled; enabling removes its entry.
 */
export const MCP_ENABLEMENT_FILE = 'mcp-server-enablement.json';

export const normalizeServerId = (name: string): string => name.toLowerCase().trim();

export function mcpEnablementPath(home: string): string {
  return join(home, '.gemini', MCP_ENABLEMENT_FILE);
}

type Enablement = Record<string, { enabled?: unknown }>;

/** The file's entries; a missing file is empty. A file that does not parse throws (never overwritten). */
function readEnablement(file: string): Enablement {
  // Read at every start: through the one safe reader, so a FIFO or device there is refused, not waited on.
  const text = readConfigFile(file);
  if (text === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} does not parse: ${(e as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${file} is not a JSON object`);
  return value as Enablement;
}

/** Names (normalized) disabled in the file. An unreadable file disables nothing, as in Gemini CLI. */
export function disabledMcpServers(home: string): Set<string> {
  let entries: Enablement;
  try {
    entries = readEnablement(mcpEnablementPath(home));
  } catch {
    return new Set();
  }
  return new Set(
    Object.entries(entries)
      .filter(([, v]) => v && typeof v === 'object' && v.enabled === false)
      .map(([k]) => k),
  );
}

/** Writes the server's state; returns whether the file changed. */
export function setMcpServerEnabled(home: string, name: string, enabled: boolean): boolean {
  const file = mcpEnablementPath(home);
  const entries = readEnablement(file);
  const id = normalizeServerId(name);
  const next: Enablement = Object.fromEntries(Object.entries(entries).filter(([k]) => k !== id));
  if (!enabled) next[id] = { enabled: false };
  if (enabled && !Object.hasOwn(entries, id)) return false;
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileAtomic(file, JSON.stringify(next, null, 2));
  return true;
}
