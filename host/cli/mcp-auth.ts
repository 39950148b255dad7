import { FatalInputError } from '../errors.js';
import { resolve } from 'node:path';
import { resolveServerSet } from '../config/servers.js';
import { defaultProjectTempDir } from '../config/settings.js';
import { loadSettings } from '../load-settings.js';
import { EXIT_ERROR, EXIT_OK, type McpCommandOptions } from './mcp-shared.js';

/**
 * `gemini-mcp mcp auth NAME [--logout]`: signs in to a remote MCP server with OAuth 2.1 (browser, loopback
 * redirect) and stores its tokens; `--logout` forgets them. Sessions then use and refresh the tokens.
 */
export async function authServer(
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const logout = argv.includes('--logout');
  const names = argv.filter((a) => a !== '--logout');
  if (names.length !== 1 || names[0]!.startsWith('-')) throw new FatalInputError('mcp auth takes one <server> name.');
  const name = names[0]!;
  const cwd = resolve(opts.cwd);
  const env = opts.env ?? process.env;
  const loaded = loadSettings({ cwd, env });
  const { servers } = resolveServerSet(loaded, {
    cwd,
    roots: [cwd],
    projectTempDir: defaultProjectTempDir(cwd, loaded.env),
    env: loaded.env,
  });
  const server = servers.find((s) => s.alias === name || s.name === name);
  if (!server) throw new FatalInputError(`No MCP server "${name}" is configured.`);
  if (!server.url) throw new FatalInputError(`"${name}" is a local (stdio) server: OAuth is for remote servers.`);
  if (!server.oauth) {
    err.write(`"${name}" has OAuth turned off (oauth.enabled false, or a static Authorization header).\n`);
    return EXIT_ERROR;
  }
  if (logout) {
    const { TokenStore } = await import('../mcp/oauth/token-store.js');
    const removed = new TokenStore(server.oauth.tokenFile).remove(server.oauth.serverName, server.url);
    out.write(removed ? `Signed out of "${name}".\n` : `No stored sign-in for "${name}".\n`);
    return EXIT_OK;
  }
  const { signIn } = await import('../mcp/oauth/sign-in.js');
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  try {
    const result = await signIn({
      config: server.oauth,
      serverUrl: server.url,
      say: (line) => void out.write(`${line}\n`),
      signal: ac.signal,
      openBrowser: !env.CI && Boolean(env.DISPLAY || env.WAYLAND_DISPLAY || process.platform === 'darwin'),
    });
    out.write(result === 'refreshed' ? `"${name}": stored sign-in refreshed.\n` : `Signed in to "${name}".\n`);
    return EXIT_OK;
  } catch (e) {
    err.write(`Could not sign in to "${name}": ${(e as Error).message}\n`);
    return EXIT_ERROR;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
