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
