import { join } from 'node:path';
import { afterEach } from 'vitest';
import { McpClientManager } from '../../../host/mcp/client-manager.js';
import type { ResolvedServerConfig } from '../../../host/config/servers.js';
import { REPO } from '../../helpers/paths.js';

/** The scriptable misbehaving MCP server (crashes, hangs, pages, never initializes) the manager tests use. */
export const FAULT = join(REPO, 'test/fixtures/fault-server.mjs');

/** A stdio config for the fault server, its state kept in `stateDir`. */
export function fault(
  alias: string,
  stateDir: string,
  env: Record<string, string> = {},
  extra: Partial<ResolvedServerConfig> = {},
): ResolvedServerConfig {
  return {
    alias,
    builtIn: false,
    trust: false,
    transport: 'stdio',
    command: process.execPath,
    args: [FAULT],
    env: { PATH: process.env.PATH!, FAULT_STATE_DIR: stateDir, ...env },
    timeoutMs: 600_000,
    ...extra,
  };
}

type ManagerOptions = Partial<ConstructorParameters<typeof McpClientManager>[0]>;

/** Builds managers with the given restart backoff and closes them after each test of the file. */
export function managerFactory(restartBackoffMs: number[]) {
  const managers: McpClientManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
  });
  return (servers: ResolvedServerConfig[], opts: ManagerOptions = {}) => {
    const m = new McpClientManager({ servers, roots: [REPO], restartBackoffMs, ...opts });
    managers.push(m);
    return m;
  };
}
