import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import shellQuote from 'shell-quote';
import { splitContextFileNames } from '../../protocol/context-file-name.js';
import { SettingsError } from './errors.js';
import { disabledMcpServers, normalizeServerId } from './mcp-enablement.js';
import { geminiHome } from './paths.js';
import { oauthFor, type OAuthServerConfig } from './server-oauth.js';
import { BUILTIN_ALIASES, DISCOVERY_ALIAS, toolPrefixes } from './server-names.js';
import type { McpServerSettings, Settings } from './settings-schema.js';
import { serverSandbox, type SandboxChoice, type ServerSandbox } from './sandbox.js';
import { BASE_ENV_NAMES, BUILTIN_ENV_NAMES, pickEnv, sanitizedEnv, type RedactionOverrides } from './env.js';

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

let cachedRoot: string | undefined;

/** The package root, found by walking up from this module: works from source (vitest) and from dist. */
export function packageRoot(): string {
  if (cachedRoot) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'gemini-mcp-cli') return (cachedRoot = dir);
    const up = dirname(dir);
    if (up === dir) throw new Error('gemini-mcp-cli package root not found');
    dir = up;
  }
}

/** A built-in server's entry: the bundle `npm run build` writes to dist/bin. */
/** The host environment without secret-looking variables (env.ts sanitizedEnv), a fresh copy per call. */
type CleanEnv = () => Record<string, string>;

export function builtInEntry(name: string): string {
  const file = name === DISCOVERY_ALIAS ? 'gemini-mcp-discovery-bridge.cjs' : `gemini-mcp-${name}.cjs`;
  return join(packageRoot(), 'dist/bin', file);
}

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
  for (const name of BUILTIN_ALIASES) ordered.set(name, builtIn(name, opts, env, clean, contextFileNames(settings)));
  if (settings.tools?.discoveryCommand) ordered.set(DISCOVERY_ALIAS, discoveryBridge(settings, opts, clean));
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

function rootArgs(opts: ResolveServersOptions): string[] {
  const roots = opts.roots?.length ? opts.roots : [opts.cwd];
  return [...roots.flatMap((r) => ['--root', resolve(r)]), '--project-temp-dir', opts.projectTempDir];
}

/** The same configuration with `--root` naming these directories instead (where the first one stood). */
export function withRootArgs(config: ResolvedServerConfig, roots: string[]): ResolvedServerConfig {
  const args = config.args ?? [];
  const at = args.indexOf('--root');
  if (!config.rootArgs || at < 0) return config;
  const rest = args.filter((a, i) => a !== '--root' && args[i - 1] !== '--root');
  const next = [...rest.slice(0, at), ...roots.flatMap((r) => ['--root', resolve(r)]), ...rest.slice(at)];
  const same = next.length === args.length && next.every((a, i) => a === args[i]);
  return same ? config : { ...config, args: next };
}

const BUILTIN_DESCRIPTIONS: Record<string, string> = {
  filesystem: 'Built-in: files in the workspace',
  shell: 'Built-in: shell commands',
  web: 'Built-in: web fetch and Google search',
  memory: 'Built-in: long-term memory (GEMINI.md)',
  [DISCOVERY_ALIAS]: 'Built-in: tools from tools.discoveryCommand',
};

/**
 * `context.fileName`: one name or a list (Gemini CLI accepts both); empty means the default GEMINI.md.
 * Only plain file names are used; a path (`../.ssh/id_rsa`) is refused — see refusedContextFileNames.
 */
export function contextFileNames(settings: Settings): string[] {
  return splitContextFileNames(configuredContextFileNames(settings)).names;
}

/** The configured context file names that are paths rather than plain names, for the start-up notice. */
export function refusedContextFileNames(settings: Settings): string[] {
  return splitContextFileNames(configuredContextFileNames(settings)).refused;
}

function configuredContextFileNames(settings: Settings): string[] {
  const v = settings.context?.fileName;
  const names = typeof v === 'string' ? [v] : (v ?? []);
  return names.map((n) => n.trim()).filter(Boolean);
}

function builtIn(
  name: string,
  opts: ResolveServersOptions,
  env: NodeJS.ProcessEnv,
  clean: CleanEnv,
  fileNames: string[],
): ResolvedServerConfig {
  let childEnv: Record<string, string>;
  if (name === 'shell') {
    // The shell runs the user's own commands: their environment, minus secrets and never the API key.
    childEnv = clean();
    for (const k of BUILTIN_ENV_NAMES.web!) if (/KEY/.test(k)) delete childEnv[k];
  } else {
    childEnv = pickEnv(env, [...BASE_ENV_NAMES, ...(BUILTIN_ENV_NAMES[name] ?? [])]);
    if (name === 'memory' && opts.homeDir) childEnv.GEMINI_CLI_HOME = opts.homeDir;
  }
  const sandboxed = name === 'shell' && opts.sandbox?.shell === true;
  return {
    alias: name,
    builtIn: true,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args: [
      builtInEntry(name),
      ...rootArgs(opts),
      ...(name === 'memory' ? fileNames.flatMap((f) => ['--context-file-name', f]) : []),
      ...(sandboxed ? shellSandboxArgs(opts.sandbox!) : []),
    ],
    ...(sandboxed ? { sandboxed: true } : {}),
    env: { ...childEnv, GEMINI_CLI: '1' },
    cwd: opts.cwd,
    timeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    description: BUILTIN_DESCRIPTIONS[name],
    startup: 'lazy',
    // Our servers' listings depend on their flags and these variables, never on the user's other ones.
    listingEnvNames: [...BASE_ENV_NAMES, ...(BUILTIN_ENV_NAMES[name] ?? [])],
    rootArgs: true,
  };
}

function shellSandboxArgs(s: SandboxChoice): string[] {
  return [
    '--sandbox',
    ...(s.allowNet.length ? ['--sandbox-allow-net', s.allowNet.join(',')] : []),
    ...s.secrets.flatMap((p) => ['--sandbox-secret', p]),
  ];
}

function discoveryBridge(settings: Settings, opts: ResolveServersOptions, clean: CleanEnv): ResolvedServerConfig {
  const args = [builtInEntry(DISCOVERY_ALIAS), '--discovery-command', settings.tools!.discoveryCommand!];
  if (settings.tools?.callCommand) args.push('--call-command', settings.tools.callCommand);
  return {
    alias: DISCOVERY_ALIAS,
    builtIn: true,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args: [...args, ...rootArgs(opts)],
    env: { ...clean(), GEMINI_CLI: '1' },
    cwd: opts.cwd,
    timeoutMs: DEFAULT_CALL_TIMEOUT_MS,
    description: BUILTIN_DESCRIPTIONS[DISCOVERY_ALIAS],
    startup: 'lazy',
  };
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
