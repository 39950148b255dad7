import { resolve } from 'node:path';
import { loadSettings, resolveServers, type LoadedSettings } from './config/settings.js';
import type { ResolvedServerConfig } from './config/servers.js';
import { builtinReplacementNotice } from './config/server-names.js';
import { ensureProjectTempDir, listingCacheDir } from './config/paths.js';
import { untrustedNotice } from './config/trust.js';
import { refusedContextFileNames } from './config/servers.js';
import { refusedContextFileNamesNotice } from '../protocol/context-file-name.js';
import { silentLogger, type HostLogger } from './log.js';
import { McpClientManager } from './mcp/client-manager.js';
import { ListingCache } from './mcp/listing-cache.js';
import { ClientRequests, type ClientAsker } from './mcp/client-requests.js';
import { PolicyEngine } from './policy/policy-engine.js';
import { headlessConfirmer } from './scheduler/approvals.js';
import { ToolScheduler } from './scheduler/scheduler.js';
import type { ApprovalMode, Confirmer } from './scheduler/types.js';
import { ToolRegistry } from './tools/registry.js';
import { effectiveCore } from './tools/naming.js';
import { JitContext } from './core/jit-context.js';
import type { Settings } from './config/settings-schema.js';
import { HOST_TOOLS_ALIAS } from './tools/tool-search.js';
import { callResourceTool, isResourceTool } from './tools/resource-tools.js';
import type { CallExecutor } from './scheduler/executor.js';

export interface HostRuntimeOptions {
  cwd: string;
  includeDirectories?: string[];
  approvalMode?: ApprovalMode;
  allowedMcpServerNames?: string[];
  allowedTools?: string[];
  interactive: boolean;
  confirmer?: Confirmer;
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  projectTempDir?: string;
  log?: HostLogger;
  /** Settings the caller already loaded (the session reads them to pick model and credentials). */
  settings?: LoadedSettings;
  /** The person who fills in servers' forms and approves sampling (the terminal UI); none when headless. */
  asker?: ClientAsker;
  /** `--debug`: servers are asked for debug-level log messages, which go to the debug log. */
  debug?: boolean;
  /** Messages the user must see even without --debug (headless: stderr), e.g. a declined server request. */
  notify?: (message: string) => void;
  /** `--skip-trust`: this run treats the folder as trusted (nothing is saved). */
  skipTrust?: boolean;
}

export interface HostRuntime {
  settings: LoadedSettings;
  manager: McpClientManager;
  /** Servers' forms and sampling requests; the session installs its model here. */
  clientRequests: ClientRequests;
  registry: ToolRegistry;
  scheduler: ToolScheduler;
  policy: PolicyEngine;
  roots: string[];
  projectTempDir: string;
  /** What the user must be told at start: skipped untrusted-folder configuration, replaced built-ins. */
  notices: string[];
  setApprovalMode(m: ApprovalMode): void;
  getApprovalMode(): ApprovalMode;
  close(): Promise<void>;
}

/** Host-provided tools (search_tools, the resource tools) run here; every other call goes to its server. */
function hostExecutor(manager: McpClientManager, registry: ToolRegistry): CallExecutor {
  return {
    callTool: async (alias, toolName, args, o) => {
      if (alias === HOST_TOOLS_ALIAS) {
        return isResourceTool(toolName)
          ? callResourceTool(manager, toolName, args)
          : registry.callHostTool(toolName, args);
      }
      registry.noteUsed(alias, toolName);
      return manager.callTool(alias, toolName, args, o);
    },
    setElicitationHandler: (h) => manager.setElicitationHandler(h),
    prepare: (alias) => {
      if (alias !== HOST_TOOLS_ALIAS) manager.prepare(alias);
    },
  };
}

/**
 * Wires the tool side of a session: settings → servers → manager → registry, policy and scheduler.
 * Starts every server and returns without waiting for them (`manager.whenReady()` waits); a lazy
 * server whose listing is cached is declared from the cache and starts on first use.
 * Throws `SettingsError` for bad settings and an Error when yolo is forbidden.
 */
export async function createHostRuntime(opts: HostRuntimeOptions): Promise<HostRuntime> {
  const cwd = resolve(opts.cwd);
  const settings =
    opts.settings ?? loadSettings({ cwd, homeDir: opts.homeDir, env: opts.env, skipTrust: opts.skipTrust });
  const env = settings.env;
  const merged = settings.merged;
  const mode = startingApprovalMode(opts.approvalMode, settings);
  const roots = [...new Set([cwd, ...(opts.includeDirectories ?? []).map((d) => resolve(cwd, d))])];
  const projectTempDir = opts.projectTempDir ?? ensureProjectTempDir(cwd, env, opts.homeDir);
  const servers = resolveServers(settings, {
    cwd,
    roots,
    projectTempDir,
    env,
    allowedMcpServerNames: opts.allowedMcpServerNames,
    homeDir: opts.homeDir,
  });
  const byName = serverNameMap(servers);
  // Registry and policy read the same tool settings: tools.core as Gemini CLI applies it (allow rules
  // count as listed) and server lists by tool prefix.
  const toolSettings: Settings = {
    ...merged,
    tools: { ...merged.tools, core: effectiveCore(merged.tools?.core, [merged.tools?.allowed, opts.allowedTools]) },
    mcp: { ...merged.mcp, allowed: byName(merged.mcp?.allowed), excluded: byName(merged.mcp?.excluded) },
  };
  const policy = new PolicyEngine({
    settings: toolSettings,
    approvalMode: mode.mode,
    untrustedFolder: !settings.trust.trusted,
    interactive: opts.interactive,
    allowedTools: opts.allowedTools,
    allowedMcpServerNames: byName(opts.allowedMcpServerNames),
  });
  const log = opts.log ?? silentLogger;
  const trusted = new Set(servers.filter((s) => s.trust).map((s) => s.alias));
  const clientRequests = new ClientRequests({ trusted: (alias) => trusted.has(alias), notify: opts.notify });
  if (opts.asker) clientRequests.setAsker(opts.asker);
  const listingCache = new ListingCache(listingCacheDir(env, opts.homeDir));
  // Servers log at debug level only when the user asked for debug output.
  const manager = new McpClientManager({
    servers,
    roots,
    log,
    clientRequests,
    listingCache,
    logLevel: opts.debug ? 'debug' : 'warning',
  });
  const registry = new ToolRegistry(manager, toolSettings);
  const executor = hostExecutor(manager, registry);
  // Subdirectory context follows the folder's trust, as Gemini CLI's project memory does.
  const jit = settings.trust.trusted ? new JitContext(manager, cwd, (m) => log.debug(m)) : undefined;
  const scheduler = new ToolScheduler({
    tools: registry,
    executor,
    policy,
    confirmer: opts.confirmer ?? headlessConfirmer,
    projectTempDir,
    truncateThreshold: merged.tools?.truncateToolOutputThreshold,
    log: (m) => log.debug(m),
    extraContext: jit ? (tool, args) => jit.forCall(tool, args) : undefined,
    whenReady: async () => {
      await manager.whenReady();
      await manager.whenListsFresh();
    },
  });
  manager.start();
  return {
    settings,
    manager,
    clientRequests,
    registry,
    scheduler,
    policy,
    roots,
    projectTempDir,
    notices: [
      untrustedNotice(settings.trust, [...settings.skipped, ...mode.skipped]),
      builtinReplacementNotice(servers),
      contextFileNamesNotice(settings.merged),
    ].filter((n): n is string => !!n),
    setApprovalMode: (m) => policy.setApprovalMode(m),
    getApprovalMode: () => policy.getApprovalMode(),
    close: () => {
      clientRequests.flushNotices();
      return manager.close();
    },
  };
}

/**
 * The flag's mode, else `general.defaultApprovalMode`; an untrusted folder stays in `default` whatever was
 * asked, as in Gemini CLI, and the notice says so.
 */
function startingApprovalMode(
  requested: ApprovalMode | undefined,
  settings: LoadedSettings,
): { mode: ApprovalMode; skipped: string[] } {
  const configured = settings.merged.general?.defaultApprovalMode;
  const fromSettings = configured === 'auto_edit' ? 'autoEdit' : configured === 'plan' ? 'plan' : undefined;
  const mode = requested ?? fromSettings ?? 'default';
  // Plan mode only takes permissions away, so an untrusted folder may use it.
  if (settings.trust.trusted || mode === 'default' || mode === 'plan') return { mode, skipped: [] };
  return { mode: 'default', skipped: [`approval mode ${mode} (this run stays in default)`] };
}

/** Server lists may use the `mcpServers` key as written; policy compares tool prefixes. */
function serverNameMap(servers: readonly ResolvedServerConfig[]): (list: string[] | undefined) => string[] | undefined {
  const alias = new Map(servers.filter((s) => s.name).map((s) => [s.name!, s.alias]));
  return (list) => list?.map((n) => alias.get(n) ?? n);
}

/** The start-up notice for context file names that are paths, which are never read. */
function contextFileNamesNotice(settings: Settings): string | undefined {
  const refused = refusedContextFileNames(settings);
  return refused.length ? refusedContextFileNamesNotice(refused) : undefined;
}
