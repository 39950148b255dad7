import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { geminiHome, loadSettings, resolveServers, type LoadedSettings } from './config/settings.js';
import { silentLogger, type HostLogger } from './log.js';
import { McpClientManager } from './mcp/client-manager.js';
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
}

export interface HostRuntime {
  settings: LoadedSettings;
  manager: McpClientManager;
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
 * Starts every server and returns without waiting for them (`manager.whenSettled()` waits).
 * Throws `SettingsError` for bad settings and an Error when yolo is forbidden.
 */
export async function createHostRuntime(opts: HostRuntimeOptions): Promise<HostRuntime> {
  const env = opts.env ?? process.env;
  const cwd = resolve(opts.cwd);
  const settings = loadSettings({ cwd, homeDir: opts.homeDir, env });
  const merged = settings.merged;
  const roots = [...new Set([cwd, ...(opts.includeDirectories ?? []).map((d) => resolve(cwd, d))])];
  const projectTempDir = opts.projectTempDir ?? defaultProjectTempDir(cwd, env, opts.homeDir);
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
  const manager = new McpClientManager({ servers, roots, log });
  const registry = new ToolRegistry(manager, merged);
  const scheduler = new ToolScheduler({
    tools: registry,
    executor: manager,
    policy,
    confirmer: opts.confirmer ?? headlessConfirmer,
    projectTempDir,
    truncateThreshold: merged.tools?.truncateToolOutputThreshold,
    log: (m) => log.debug(m),
    whenReady: () => manager.whenSettled(),
  });
  manager.start();
  return {
    settings, manager, registry, scheduler, policy, roots, projectTempDir,
    setApprovalMode: (m) => policy.setApprovalMode(m),
    getApprovalMode: () => policy.getApprovalMode(),
    close: () => manager.close(),
  };
}

/** `~/.gemini/tmp/<sha256 of the project root>`, else under the OS temp dir when home is not writable. */
export function defaultProjectTempDir(cwd: string, env: NodeJS.ProcessEnv = process.env, homeDir?: string): string {
  const hash = createHash('sha256').update(resolve(cwd)).digest('hex');
  const preferred = join(geminiHome(env, homeDir), '.gemini', 'tmp', hash);
  try {
    mkdirSync(preferred, { recursive: true });
    return preferred;
  } catch {
    const fallback = join(tmpdir(), 'gemini-mcp', hash);
    mkdirSync(fallback, { recursive: true });
    return fallback;
  }
}
