import type * as acp from '@agentclientprotocol/sdk';
import type { LoadedSettings } from '../load-settings.js';
import type { McpServerSettings } from '../config/settings-schema.js';

function pairs(list: { name: string; value: string }[] | undefined): Record<string, string> | undefined {
  if (!list?.length) return undefined;
  return Object.fromEntries(list.map((p) => [p.name, p.value]));
}

/** One editor-provided server as an `mcpServers` entry: the same shape a settings file gives. */
function entryOf(s: acp.McpServer): McpServerSettings {
  if ('type' in s && s.type === 'http') return { httpUrl: s.url, headers: pairs(s.headers) };
  if ('type' in s && s.type === 'sse') return { url: s.url, type: 'sse', headers: pairs(s.headers) };
  const stdio = s as acp.McpServerStdio;
  // Started with the session: the editor hands them over to be used now, and they have no cached listing.
  return { command: stdio.command, args: stdio.args, env: pairs(stdio.env), startup: 'eager' };
}

/** What the editor is told about a stdio server held back in an untrusted folder (Gemini CLI's words). */
export const heldBackMessage = (name: string): string =>
  `MCP server '${name}' uses stdio transport but current folder is not trusted. Use 'gemini-mcp trust' to enable it.`;

/**
 * The settings a session runs with: the configured ones plus the editor's own MCP servers, added as
 * `mcpServers` entries so they get the same `server__tool` naming, environment sanitising, allow/exclude
 * lists and trust rules (never trusted: their calls are confirmed like any untrusted server's). A
 * configured server keeps its name; an editor server with the same name is skipped and reported. In a
 * folder that is not trusted, a stdio server (a program the editor asks us to start there) is held back,
 * as Gemini CLI does; remote servers start no local program and are kept.
 */
export function withEditorServers(
  settings: LoadedSettings,
  servers: acp.McpServer[],
): { settings: LoadedSettings; skipped: string[]; heldBack: string[] } {
  if (servers.length === 0) return { settings, skipped: [], heldBack: [] };
  const configured = { ...(settings.merged.mcpServers ?? {}) };
  const skipped: string[] = [];
  const heldBack: string[] = [];
  for (const s of servers) {
    const entry = entryOf(s);
    if (Object.hasOwn(configured, s.name)) skipped.push(s.name);
    else if (entry.command !== undefined && !settings.trust.trusted) heldBack.push(s.name);
    else configured[s.name] = entry;
  }
  return { settings: { ...settings, merged: { ...settings.merged, mcpServers: configured } }, skipped, heldBack };
}
