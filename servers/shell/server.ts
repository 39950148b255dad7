import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKitServer, type KitServer } from '../common/create-server.js';
import type { Logger } from '../common/logger.js';
import { DEFAULT_TRUNCATE_THRESHOLD } from '../../protocol/truncate.js';
import { VERSION } from '../../protocol/version.js';
import { preloadBashParser } from '../../protocol/bash/bash-parser.js';
import { GroupRegistry } from './process-group.js';
import { createRunShellCommandTool } from './tools/run-shell-command.js';
import { BackgroundJobs } from './background-jobs.js';
import { createListBackgroundProcessesTool } from './tools/list-background-processes.js';
import { createReadBackgroundOutputTool } from './tools/read-background-output.js';
import { createKillBackgroundProcessTool } from './tools/kill-background-process.js';
import type { SandboxFor } from './sandbox.js';
import { PtySessions } from './pty-sessions.js';
import { createWriteToShellTool } from './tools/write-to-shell.js';

export interface ShellServerDeps {
  roots: string[];
  projectTempDir?: string;
  log: Logger;
  /** Inactivity timeout in seconds (contract: 300); 0 disables it. */
  timeoutS?: number;
  /** Model-facing character limit (host setting `tools.truncateToolOutputThreshold`). */
  truncateThreshold?: number;
  /** Grace between SIGTERM and SIGKILL when a group is stopped. */
  killGraceMs?: number;
  progressIntervalMs?: number;
  /** Background jobs remembered and running at once (default 100, as Gemini CLI remembers). */
  maxJobs?: number;
  /** From createShellSandbox(): every command runs confined. */
  sandbox?: SandboxFor;
}

export function createShellServer(deps: ShellServerDeps): KitServer {
  const groups = new GroupRegistry(deps.killGraceMs ?? 2000);
  const jobs = new BackgroundJobs(groups, deps.maxJobs);
  const ptys = new PtySessions();
  let closing: Promise<void> | undefined;
  const stopAll = () => (closing ??= groups.terminateAll().catch((err) => deps.log.error(`stopping commands: ${err}`)));

  const kit = createKitServer({
    name: 'gemini-mcp-shell',
    version: VERSION,
    instructions: deps.sandbox
      ? 'Runs bash commands in the workspace, each in its own process group, inside a sandbox (writes only in the workspace, secrets hidden, network off unless allow-listed).'
      : 'Runs bash commands in the workspace, each in its own process group.',
    tools: [
      createRunShellCommandTool({
        groups,
        jobs,
        timeoutMs: (deps.timeoutS ?? 300) * 1000,
        truncateThreshold: deps.truncateThreshold ?? DEFAULT_TRUNCATE_THRESHOLD,
        fallbackTempDir: join(tmpdir(), 'gemini-mcp-shell'),
        progressIntervalMs: deps.progressIntervalMs ?? 250,
        sandbox: deps.sandbox,
        ptys,
      }),
      createListBackgroundProcessesTool(jobs),
      createReadBackgroundOutputTool(jobs),
      createKillBackgroundProcessTool(jobs),
      createWriteToShellTool(ptys),
    ],
    log: deps.log,
    roots: deps.roots,
    projectTempDir: deps.projectTempDir,
    // Client gone (stdin closed, HTTP session ended): nothing it started may outlive it.
    onClose: () => void stopAll(),
  });
  // The kit's onClose cannot be awaited; the entry exits once `close()` resolves, so close()
  // waits for the groups to be gone (SIGTERM, grace, SIGKILL) before the process may exit.
  const close = kit.mcp.close.bind(kit.mcp);
  kit.mcp.close = async () => {
    await close();
    await stopAll();
  };
  // Parse the first command without paying for the wasm load, but after start-up: a host spawns
  // several servers at once and the handshake should not wait for the grammar. Failures surface on
  // first use.
  setTimeout(() => void preloadBashParser().catch(() => undefined), 300).unref();
  return kit;
}
