import { resolve } from 'node:path';
import { loadSettings, resolveServers, type LoadedSettings } from './config/settings.js';
import { ensureProjectTempDir } from './config/paths.js';
import { silentLogger, type HostLogger } from './log.js';
import { McpClientManager } from './mcp/client-manager.js';
import { ClientRequests, type ClientAsker } from './mcp/client-requests.js';
import { PolicyEngine } from './policy/policy-engine.js';
import { headlessConfirmer } from './scheduler/approvals.js';
import { ToolScheduler } from './scheduler/scheduler.js';
import type { ApprovalMode, Confirmer } from './scheduler/types.js';
import { ToolRegistry } from './tools/registry.js';

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
  /** Messages the user must see even without --debug (headless: stderr), e.g. a declined server request. */
  notify?: (message: string) => void;
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
  setApprovalMode(m: ApprovalMode): void;
  getApprovalMode(): ApprovalMode;
  close(): Promise<void>;
}

/**
 * Wires the tool side of a session: settings → servers → manager → registry, policy and scheduler.
 * Starts every server and returns without waiting for them (`manager.whenReady()` waits).
 * Throws `SettingsError` for bad settings and an Error when yolo is forbidden.
 */
export async function createHostRuntime(opts: HostRuntimeOptions): Promise<HostRuntime> {
  const env = opts.env ?? process.env;
  const cwd = resolve(opts.cwd);
  const settings = opts.settings ?? loadSettings({ cwd, homeDir: opts.homeDir, env });
  const merged = settings.merged;
  const roots = [...new Set([cwd, ...(opts.includeDirectories ?? []).map((d) => resolve(cwd, d))])];
  const projectTempDir = opts.projectTempDir ?? ensureProjectTempDir(cwd, env, opts.homeDir);
  const policy = new PolicyEngine({
    settings: merged,
    approvalMode: opts.approvalMode,
    interactive: opts.interactive,
    allowedTools: opts.allowedTools,
    allowedMcpServerNames: opts.allowedMcpServerNames,
  });
  const servers = resolveServers(settings, {
    cwd, roots, projectTempDir, env, allowedMcpServerNames: opts.allowedMcpServerNames, homeDir: opts.homeDir,
  });
  const log = opts.log ?? silentLogger;
  const trusted = new Set(servers.filter((s) => s.trust).map((s) => s.alias));
  const clientRequests = new ClientRequests({ trusted: (alias) => trusted.has(alias), notify: opts.notify });
  if (opts.asker) clientRequests.setAsker(opts.asker);
  const manager = new McpClientManager({ servers, roots, log, clientRequests });
  const registry = new ToolRegistry(manager, merged);
  const scheduler = new ToolScheduler({
    tools: registry,
    executor: manager,
    policy,
    confirmer: opts.confirmer ?? headlessConfirmer,
    projectTempDir,
    truncateThreshold: merged.tools?.truncateToolOutputThreshold,
    log: (m) => log.debug(m),
    whenReady: async () => {
      await manager.whenReady();
      await manager.whenListsFresh();
    },
  });
  manager.start();
  return {
    settings, manager, clientRequests, registry, scheduler, policy, roots, projectTempDir,
    setApprovalMode: (m) => policy.setApprovalMode(m),
    getApprovalMode: () => policy.getApprovalMode(),
    close: () => manager.close(),
  };
}
