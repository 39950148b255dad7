import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { setMcpServerEnabled, normalizeServerId } from '../config/mcp-enablement.js';
import { resolveServerSet } from '../config/servers.js';
import { defaultProjectTempDir, geminiHome } from '../config/settings.js';
import { loadSettings } from '../load-settings.js';
import { FatalInputError } from '../errors.js';
import { safeText } from '../safe-text.js';
import { EXIT_ERROR, EXIT_OK, type McpCommandOptions } from './mcp-shared.js';

/**
 * `mcp enable|disable <name>`: Gemini CLI 0.61's commands and file (~/.gemini/mcp-server-enablement.json),
 * so a server switched off in either program is off in both. A name no settings file configures is an
 * error; enabling a server that mcp.excluded or mcp.allowed blocks says so and changes nothing.
 */
export function setServerEnabled(
  enable: boolean,
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): number {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: {} }));
  } catch (e) {
    throw new FatalInputError((e as Error).message);
  }
  const name = positionals[0];
  if (!name || positionals.length > 1)
    throw new FatalInputError(`mcp ${enable ? 'enable' : 'disable'} needs one server name.`);
  const cwd = resolve(opts.cwd);
  const loaded = loadSettings({ cwd, env: opts.env });
  const env = loaded.env;
  const { servers, blocked } = resolveServerSet(loaded, { cwd, projectTempDir: defaultProjectTempDir(cwd, env), env });
  const id = normalizeServerId(name);
  const matches = (s: { alias: string; name?: string }) => normalizeServerId(s.name ?? s.alias) === id;
  const found = servers.find(matches) ?? blocked.find(matches);
  if (!found) {
    err.write(`Error: Server '${safeText(name)}' not found. Use 'gemini-mcp mcp list' to see available servers.\n`);
    return EXIT_ERROR;
  }
  const block = blocked.find(matches);
  if (enable && block && !block.reason.startsWith('disabled')) {
    err.write(`Error: Server '${safeText(name)}' is ${safeText(block.reason)}: enabling it would not start it.\n`);
    return EXIT_ERROR;
  }
  setMcpServerEnabled(geminiHome(opts.env ?? process.env), id, enable);
  out.write(`✓ MCP server '${safeText(id)}' ${enable ? 'enabled' : 'disabled'}.\n`);
  return EXIT_OK;
}
