import { afterEach } from 'vitest';
import { ENTRY } from '../../helpers/paths.js';
import { startStdioServer, type StdioServer, type StdioServerOptions } from '../../helpers/mcp.js';

const servers: StdioServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The built memory server over stdio with `home` as GEMINI_CLI_HOME and `root` as `--root`; closed after each test. */
export async function startMemory(home: string, root: string, opts: StdioServerOptions = {}): Promise<StdioServer> {
  const s = await startStdioServer(ENTRY.memory, {
    ...opts,
    args: ['--root', root, ...(opts.args ?? [])],
    env: { GEMINI_CLI_HOME: home, ...(opts.env ?? {}) },
  });
  servers.push(s);
  return s;
}
