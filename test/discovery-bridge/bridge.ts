import { join } from 'node:path';
import { ENTRY, REPO } from '../helpers/paths.js';
import { startStdioServer, type StdioServer } from '../helpers/mcp.js';

export const FIXTURES = join(REPO, 'test/fixtures/discovery');
export const DISCOVER = join(FIXTURES, 'discover.sh');
export const CALL = join(FIXTURES, 'call.sh');

/** Starts the built bridge over stdio with the fixture scripts; `discovery` is the full command line. */
export function startBridge(discovery: string, extra: string[] = [], cwd?: string): Promise<StdioServer> {
  return startStdioServer(ENTRY.discoveryBridge, {
    args: ['--discovery-command', discovery, '--call-command', CALL, ...extra],
    cwd,
  });
}

/** Polls until `check` holds; generous because the machine is shared and loaded. */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
