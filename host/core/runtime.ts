import { resolve } from 'node:path';
import { META } from '../../protocol/meta.js';
import { resolveServers } from '../config/settings.js';
import { loadSettings, type LoadedSettings } from '../load-settings.js';
import type { ResolvedServerConfig } from '../config/servers.js';
import { ensureProjectTempDir, listingCacheDir } from '../config/paths.js';
import { silentLogger, type HostLogger } from '../log.js';
import { McpClientManager } from '../mcp/client-manager.js';
import { ListingCache } from '../mcp/listing-cache.js';
import { ClientRequests, type ClientAsker } from '../mcp/client-requests.js';
import { parseApprovalMode } from '../policy/approval-mode.js';
import { PolicyEngine } from '../policy/policy-engine.js';
import { planFileArgs } from '../policy/plan-files.js';
import { headlessConfirmer } from '../scheduler/approvals.js';
import { ToolScheduler } from '../scheduler/scheduler.js';
import type { ApprovalMode, Confirmer } from '../scheduler/types.js';
import { ToolRegistry } from '../tools/registry.js';
import { effectiveCore } from '../tools/naming.js';
import { JitContext } from './jit-context.js';
import type { Settings } from '../config/settings-schema.js';
import { HOST_TOOLS_ALIAS } from '../tools/tool-search.js';
import { callResourceTool, isResourceTool } from '../tools/resource-tools.js';
import type { CallExecutor } from '../scheduler/executor.js';
import { type Contributions, hooksFor, loadContributions, policiesFor, startupNotices } from './runtime-config.js';
import type { EditorFiles } from '../../protocol/editor-files.js';
import { sandboxChoice, sandboxUnavailable, type SandboxChoice } from '../config/sandbox.js';
import { geminiHome } from '../config/paths.js';
import type { LoadedPolicies } from '../policy/policy-files.js';
import { type HookMessage, hookMessageLine } from '../hooks/hook-message.js';
import type { HookSystem } from '../hooks/hook-system.js';
import { toolHooks } from '../hooks/tool-hooks.js';
import { acceptForeignArgs, hostOnly } from '../tools/builtin-catalogue.js';
import { agentNotices } from '../agents/agent-set.js';

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
  /** What hooks say to the person (systemMessages, failures); without it they go to `notify`, else the log. */
  onHookMessage?: (message: HookMessage) => void;
  /** `--skip-trust`: this run treats the folder as trusted (nothing is saved). */
  skipTrust?: boolean;
  /** An editor's files (ACP `fs/*`), lent to the built-in servers; see docs/editor-file-system.md. */
  editorFiles?: EditorFiles;
  /** `-s/--sandbox`: the shell server runs every command sandboxed (also GEMINI_SANDBOX, `tools.sandbox`). */
  sandbox?: boolean;
  /** `--sandbox-allow-net`: hosts added to `tools.sandboxNetwork`. */
  sandboxAllowNet?: string[];
  /** `--policy FILE` (repeatable): policy files or folders of the user tier. */
  policyFiles?: string[];
  /** `--admin-policy FILE` (repeatable): policy files or folders of the admin tier. */
  adminPolicyFiles?: string[];
  /** `-e/--extensions a,b` (or `none`): only these extensions for this run. */
  extensions?: string[];
}

/** A session's parts; what it loaded from extensions, commands, skills and agents is `Contributions` (runtime-config.ts). */
export interface HostRuntime extends Contributions {
  settings: LoadedSettings;
  manager: McpClientManager;
  /** Servers' forms and sampling requests; the session installs its model here. */
  clientRequests: ClientRequests;
  registry: ToolRegistry;
  scheduler: ToolScheduler;
  policy: PolicyEngine;
  roots: string[];
  projectTempDir: string;
  /** Hooks from settings (and extensions), run by the scheduler and the model loop. */
  hooks: HookSystem;
  /** The policy files in force and the ones that did not load (`/policies`). */
  policies: LoadedPolicies;
  /** What the user must be told at start: skipped untrusted-folder configuration, replaced built-ins. */
  notices: string[];
  /** The sandbox in force (the shell's, and the network it may reach). */
  sandbox: SandboxChoice;
  setApprovalMode(m: ApprovalMode): void;
  getApprovalMode(): ApprovalMode;
  /** Every approval-mode change (see PolicyEngine.onModeChange); returns the unsubscribe. */
  onApprovalModeChange(fn: (mode: ApprovalMode) => void): () => void;
  close(): Promise<void>;
}

/** Host-provided tools (search_tools, the resource tools) run here; every other call goes to its server. */
function hostExecutor(manager: McpClientManager, registry: ToolRegistry): CallExecutor {
  return {
    callTool: async (alias, toolName, args, o) => {
      if (alias === HOST_TOOLS_ALIAS) {
        return isResourceTool(toolName)
          ? callResourceTool(manager, toolName, args)
          : registry.callHostTool(toolName, args, {
              ...o,
              callId:
                o?.callId ?? (typeof o?.meta?.[META.callId] === 'string' ? (o.meta[META.callId] as string) : undefined),
              preapproved: o?.meta?.[META.preapproved] === true,
            });
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
    opts.settings ??
    loadSettings({ cwd, homeDir: opts.homeDir, env: opts.env, skipTrust: opts.skipTrust, extensions: opts.extensions });
  const { env, merged } = settings;
  const roots = [...new Set([cwd, ...(opts.includeDirectories ?? []).map((d) => resolve(cwd, d))])];
  const projectTempDir = opts.projectTempDir ?? ensureProjectTempDir(cwd, env, opts.homeDir);
  const sandbox = sandboxChoice(merged, {
    flag: opts.sandbox,
    allowNet: opts.sandboxAllowNet,
    env,
    processEnv: opts.env ?? process.env,
  });
  const unavailable = await sandboxUnavailable(sandbox);
  if (unavailable) sandbox.unavailable = unavailable;
  const servers = resolveServers(settings, {
    cwd,
    roots,
    projectTempDir,
    env,
    allowedMcpServerNames: opts.allowedMcpServerNames,
    homeDir: opts.homeDir,
    sandbox,
  });
  const byName = serverNameMap(servers);
  const toolSettings = toolSettingsOf(merged, opts.allowedTools, byName);
  const policies = policiesFor(opts, settings, cwd);
  const policy = policyFor(opts, settings, toolSettings, policies, byName, sandbox);
  const log = opts.log ?? silentLogger;
  const clientRequests = clientRequestsFor(servers, opts);
  const manager = managerFor(opts, servers, roots, clientRequests, env);
  const registry = new ToolRegistry(manager, toolSettings);
  const executor = hostExecutor(manager, registry);
  // Subdirectory context follows the folder's trust, as Gemini CLI's project memory does.
  const jit = settings.trust.trusted ? new JitContext(manager, cwd, (m) => log.debug(m)) : undefined;
  const hooks = hooksFor(settings, cwd, opts.onHookMessage ?? ((m) => (opts.notify ?? log.warn)(hookMessageLine(m))));
  const scheduler = new ToolScheduler({
    hooks: toolHooks(hooks.system, (alias) => servers.find((s) => s.alias === alias)),
    tools: registry,
    executor,
    policy,
    confirmer: opts.confirmer ?? headlessConfirmer,
    projectTempDir,
    truncateThreshold: merged.tools?.truncateToolOutputThreshold,
    log: (m) => log.debug(m),
    normalizeArgs: (tool, args) =>
      acceptForeignArgs(tool, planFileArgs(tool, args, roots[0] ?? cwd, policy.activePlansFolder()), roots[0] ?? cwd),
    extraContext: jit ? (tool, args) => jit.lookup(tool, args) : undefined,
    hostOnly,
    whenReady: () => manager.whenReady().then(() => manager.whenListsFresh()),
  });
  const extra = loadContributions(settings, cwd, geminiHome(env, opts.homeDir), registry, manager, roots);
  manager.start();
  return {
    ...extra,
    settings,
    manager,
    clientRequests,
    registry,
    scheduler,
    policy,
    roots,
    projectTempDir,
    sandbox,
    policies,
    hooks: hooks.system,
    notices: startupNotices(
      settings,
      servers,
      policy,
      {
        hooks: hooks.problems,
        policies: policies.problems,
        commands: extra.commands.errors,
        agents: agentNotices(extra.agents),
      },
      cwd,
    ),
    setApprovalMode: (m) => policy.setApprovalMode(m),
    getApprovalMode: () => policy.getApprovalMode(),
    onApprovalModeChange: (fn) => policy.onModeChange(fn),
    close: () => {
      clientRequests.flushNotices();
      return manager.close();
    },
  };
}

/** The MCP client manager of the run, with the listing cache that lets idle servers be declared. */
function managerFor(
  opts: HostRuntimeOptions,
  servers: ResolvedServerConfig[],
  roots: string[],
  clientRequests: ClientRequests,
  env: NodeJS.ProcessEnv,
): McpClientManager {
  return new McpClientManager({
    servers,
    roots,
    log: opts.log ?? silentLogger,
    clientRequests,
    listingCache: new ListingCache(listingCacheDir(env, opts.homeDir)),
    // Servers log at debug level only when the user asked for debug output.
    logLevel: opts.debug ? 'debug' : 'warning',
  });
}

/** The one policy engine of the run: settings rules, policy files, the approval mode and folder trust. */
function policyFor(
  opts: HostRuntimeOptions,
  settings: LoadedSettings,
  toolSettings: Settings,
  policies: LoadedPolicies,
  byName: (l: string[] | undefined) => string[] | undefined,
  sandbox: SandboxChoice,
): PolicyEngine {
  return new PolicyEngine({
    // `mcpName` names a server as written in mcpServers (`my.server`); tools carry its prefix (`my_server`).
    fileRules: policies.rules.map((r) => (r.mcpName ? { ...r, mcpName: byName([r.mcpName])![0]! } : r)),
    settings: toolSettings,
    approvalMode: opts.approvalMode ?? parseApprovalMode(settings.merged.general?.defaultApprovalMode) ?? 'default',
    untrustedFolder: !settings.trust.trusted,
    interactive: opts.interactive,
    allowedTools: opts.allowedTools,
    allowedMcpServerNames: byName(opts.allowedMcpServerNames),
    sandboxAutoApprove: sandbox.shell && sandbox.autoApprove,
  });
}

/** What servers may ask of the host (sampling only for trusted ones, elicitation, an editor's files). */
function clientRequestsFor(servers: readonly ResolvedServerConfig[], opts: HostRuntimeOptions): ClientRequests {
  const trusted = new Set(servers.filter((s) => s.trust).map((s) => s.alias));
  const clientRequests = new ClientRequests({
    trusted: (alias) => trusted.has(alias),
    notify: opts.notify,
    editorFiles: opts.editorFiles,
  });
  if (opts.asker) clientRequests.setAsker(opts.asker);
  return clientRequests;
}

/**
 * Registry and policy read the same tool settings: tools.core as Gemini CLI applies it (allow rules count
 * as listed) and server lists by tool prefix.
 */
function toolSettingsOf(
  merged: Settings,
  allowedTools: string[] | undefined,
  byName: (l: string[] | undefined) => string[] | undefined,
): Settings {
  return {
    ...merged,
    tools: { ...merged.tools, core: effectiveCore(merged.tools?.core, [merged.tools?.allowed, allowedTools]) },
    mcp: { ...merged.mcp, allowed: byName(merged.mcp?.allowed), excluded: byName(merged.mcp?.excluded) },
  };
}

/** Server lists may use the `mcpServers` key as written; policy compares tool prefixes. */
function serverNameMap(servers: readonly ResolvedServerConfig[]): (list: string[] | undefined) => string[] | undefined {
  const alias = new Map(servers.filter((s) => s.name).map((s) => [s.name!, s.alias]));
  return (list) => list?.map((n) => alias.get(n) ?? n);
}
