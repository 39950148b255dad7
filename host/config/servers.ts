import { resolve } from 'node:path';
import shellQuote from 'shell-quote';
import { builtInServer, type CleanEnv, discoveryBridgeServer } from './builtin-servers.js';
import { contextFileNames } from './context-file-setting.js';
import { SettingsError } from './errors.js';
import { disabledMcpServers, normalizeServerId } from './mcp-enablement.js';
import { geminiHome } from './paths.js';
import { oauthFor, type OAuthServerConfig } from './server-oauth.js';
import { BUILTIN_ALIASES, DISCOVERY_ALIAS, toolPrefixes } from './server-names.js';
import type { McpServerSettings, Settings } from './settings-schema.js';
import { serverSandbox, type SandboxChoice, type ServerSandbox } from './sandbox.js';
import { sanitizedEnv, type RedactionOverrides } from './env.js';

export type TransportKind = 'stdio' | 'http' | 'sse' | 'auto';

export interface ResolvedServerConfig {
  /** The tool-name prefix and the server's id in the host (`<alias>__<tool>`); see `toolPrefixes`. */
  alias: string;
  /** The `mcpServers` key as written, when it differs from `alias` (`brave.search` → `brave_search`). */
  name?: string;
  /** A user entry that took a built-in server's place; `replaceBuiltin: true` marks it as intended. */
  replacesBuiltin?: 'intended' | 'silently';
  builtIn: boolean;
  trust: boolean;
  transport: TransportKind;
  command?: string;
  args?: string[];
  /** The complete child environment (already sanitised); the SDK adds only its own default set. */
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  /** OAuth for a remote server: the settings' `oauth` block and the token file (absent: no OAuth). */
  oauth?: OAuthServerConfig;
  timeoutMs: number;
  /** Bound of connect + initialize when the settings give `timeout`; the manager's default (30 s) otherwise. */
  connectTimeoutMs?: number;
  includeTools?: string[];
  excludeTools?: string[];
  description?: string;
  /** `lazy`: declared from the tool-list cache and started on first use; `eager`: started with the session. */
  startup?: 'lazy' | 'eager';
  /** The extension that contributed this server (`gemini-extension.json`), if any. */
  extension?: string;
  /** The environment variables that can change what the server lists (the listing-cache key); all when absent. */
  listingEnvNames?: readonly string[];
  /** Runs confined: the shell server by its own `--sandbox`, a user stdio server by the host (`sandbox`). */
  sandboxed?: boolean;
  /** The host starts this stdio server inside the sandbox (protocol/sandbox). */
  sandbox?: ServerSandbox;
  /**
   * The host passes its workspace directories as `--root`. Our servers take those as a ceiling that MCP
   * roots can only narrow, so new workspace directories (`/directory add`) mean new arguments and a restart.
   */
  rootArgs?: boolean;
}

export interface ResolveServersOptions {
  cwd: string;
  /** Workspace directories, project root first (cwd when omitted). */
  roots?: string[];
  projectTempDir: string;
  env?: NodeJS.ProcessEnv;
  /** The `--allowed-mcp-server-names` flag; like `mcp.allowed`, it never blocks built-in servers. */
  allowedMcpServerNames?: string[];
  /** The home override given to loadSettings; the memory server is told through GEMINI_CLI_HOME. */
  homeDir?: string;
  /** `-s/--sandbox`, GEMINI_SANDBOX, `tools.sandbox*` (host/config/sandbox.ts). */
  sandbox?: SandboxChoice;
}

export type BlockedServer = { alias: string; name?: string; reason: string };

export interface ServerSet {
  servers: ResolvedServerConfig[];
  blocked: BlockedServer[];
}

export const DEFAULT_CALL_TIMEOUT_MS = 600_000;

export function resolveServers(
  settings: Settings | { merged: Settings },
  opts: ResolveServersOptions,
): ResolvedServerConfig[] {
  return resolveServerSet(settings, opts).servers;
}

/** The servers to start, in configuration order, and the ones settings or flags keep from starting. */
export function resolveServerSet(input: Settings | { merged: Settings }, opts: ResolveServersOptions): ServerSet {
  const settings = (
    'merged' in input && input.merged && typeof input.merged === 'object' ? input.merged : input
  ) as Settings;
  const env = opts.env ?? process.env;
  const redaction: RedactionOverrides = settings.security?.environmentVariableRedaction ?? {};
  // Sanitised once: testing every variable against the secret patterns per server cost 100 servers ~15 ms.
  let cleaned: Record<string, string> | undefined;
  const clean: CleanEnv = () => ({ ...(cleaned ??= sanitizedEnv(env, redaction)) });
  const ordered = new Map<string, ResolvedServerConfig>();
  for (const name of BUILTIN_ALIASES)
    ordered.set(name, builtInServer(name, opts, env, clean, contextFileNames(settings)));
  if (settings.tools?.discoveryCommand) ordered.set(DISCOVERY_ALIAS, discoveryBridgeServer(settings, opts, clean));
  if (settings.mcp?.serverCommand) {
    const [command, ...args] = splitCommand(settings.mcp.serverCommand, 'mcp.serverCommand');
    ordered.set('mcp', {
      alias: 'mcp',
      builtIn: false,
      trust: false,
      transport: 'stdio',
      command,
      args,
      env: { ...clean(), GEMINI_CLI: '1' },
      cwd: opts.cwd,
      timeoutMs: DEFAULT_CALL_TIMEOUT_MS,
      startup: 'lazy',
    });
  }
  const fromExtension =
    'extensionServers' in input ? (input as { extensionServers?: Record<string, string> }).extensionServers : undefined;
  const entries = Object.entries(settings.mcpServers ?? {});
  const prefixes = toolPrefixes(entries.map(([name]) => name));
  for (const [name, entry] of entries) {
    const alias = prefixes.get(name)!;
    const server = userServer(alias, entry, opts, env, clean);
    if (alias !== name) server.name = name;
    if (fromExtension && Object.hasOwn(fromExtension, name)) server.extension = fromExtension[name];
    // A user entry under a built-in's name replaces the built-in in place and keeps working.
    const replaced = ordered.get(alias);
    if (replaced?.builtIn) server.replacesBuiltin = entry.replaceBuiltin === true ? 'intended' : 'silently';
    ordered.set(alias, server);
  }

  const excluded = new Set(settings.mcp?.excluded ?? []);
  const disabled = disabledMcpServers(geminiHome(env, opts.homeDir));
  const allowLists = [settings.mcp?.allowed, opts.allowedMcpServerNames].filter(
    (l): l is string[] => !!l && l.length > 0,
  );
  const servers: ResolvedServerConfig[] = [];
  const blocked: BlockedServer[] = [];
  // Lists may name a server as written in mcpServers or by its tool prefix.
  const named = (list: Iterable<string>, s: ResolvedServerConfig) =>
    [...list].some((n) => n === s.alias || n === s.name);
  for (const server of ordered.values()) {
    if (named(excluded, server))
      blocked.push({ alias: server.alias, name: server.name, reason: 'excluded by mcp.excluded' });
    else if (disabled.has(normalizeServerId(server.name ?? server.alias)))
      blocked.push({
        alias: server.alias,
        name: server.name,
        reason: `disabled (gemini-mcp mcp enable ${server.name ?? server.alias})`,
      });
    else if (!server.builtIn && allowLists.some((l) => !named(l, server))) {
      blocked.push({
        alias: server.alias,
        name: server.name,
        reason: 'not in mcp.allowed / --allowed-mcp-server-names',
      });
    } else servers.push(server);
  }
  return { servers, blocked };
}

function userServer(
  alias: string,
  entry: McpServerSettings,
  opts: ResolveServersOptions,
  env: NodeJS.ProcessEnv,
  clean: CleanEnv,
): ResolvedServerConfig {
  const common = {
    alias,
    builtIn: false,
    trust: entry.trust === true,
    timeoutMs: entry.timeout ?? DEFAULT_CALL_TIMEOUT_MS,
    ...(entry.timeout !== undefined ? { connectTimeoutMs: entry.timeout } : {}),
    includeTools: entry.includeTools,
    excludeTools: entry.excludeTools,
    description: entry.description,
    startup: entry.startup ?? 'lazy',
  };
  const remote = { headers: entry.headers, oauth: oauthFor(alias, entry, env, opts.homeDir) };
  // Precedence: httpUrl > url > command.
  if (entry.httpUrl) return { ...common, transport: 'http', url: checkUrl(alias, entry.httpUrl, 'httpUrl'), ...remote };
  if (entry.url) {
    const t = entry.type;
    const transport: TransportKind =
      t === 'sse' ? 'sse' : t === 'http' || t === 'streamable-http' || t === 'streamableHttp' ? 'http' : 'auto';
    return { ...common, transport, url: checkUrl(alias, entry.url, 'url'), ...remote };
  }
  if (entry.command) {
    const cwd = entry.cwd ? resolve(opts.cwd, entry.cwd) : opts.cwd;
    const sandbox = serverSandbox(entry, cwd, opts.roots?.length ? opts.roots : [opts.cwd], opts.sandbox);
    return {
      ...common,
      transport: 'stdio',
      command: entry.command,
      args: entry.args ?? [],
      // Secrets reach a third-party server only through its own `env` entries.
      env: { ...clean(), GEMINI_CLI: '1', ...entry.env },
      cwd,
      ...(sandbox ? { sandbox, sandboxed: true } : {}),
    };
  }
  throw new SettingsError(
    `MCP server "${alias}" needs "command", "url" or "httpUrl" (settings key "mcpServers.${alias}")`,
    undefined,
    `mcpServers.${alias}`,
  );
}

function checkUrl(alias: string, url: string, key: string): string {
  try {
    new URL(url);
    return url;
  } catch {
    throw new SettingsError(
      `MCP server "${alias}": "${url}" is not a valid URL (settings key "mcpServers.${alias}.${key}")`,
      undefined,
      `mcpServers.${alias}.${key}`,
    );
  }
}

function splitCommand(text: string, key: string): string[] {
  const words = shellQuote.parse(text).filter((w): w is string => typeof w === 'string');
  if (words.length === 0) throw new SettingsError(`Settings key "${key}" is empty`, undefined, key);
  return words;
}
