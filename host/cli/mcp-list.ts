import { FatalInputError } from '../errors.js';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultProjectTempDir } from '../config/settings.js';
import { loadSettings } from '../load-settings.js';
import { listingCacheDir } from '../config/paths.js';
import { resolveServerSet, type ResolvedServerConfig } from '../config/servers.js';
import { sandboxChoice } from '../config/sandbox.js';
import { builtinReplacementNotice } from '../config/server-names.js';
import { untrustedNotice } from '../config/trust.js';
import type { ServerState } from '../mcp/client-manager.js';
import { safeBlock, safeText } from '../safe-text.js';
import { EXIT_OK, type McpCommandOptions } from './mcp-shared.js';

/** `mcp list`: every configured server, connected once to report status, tools and failures. */
export async function listServers(
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  let skipTrust = false;
  try {
    skipTrust =
      parseArgs({ args: argv, strict: true, options: { 'skip-trust': { type: 'boolean' } } }).values['skip-trust'] ===
      true;
  } catch (e) {
    throw new FatalInputError((e as Error).message);
  }
  const cwd = resolve(opts.cwd);
  const loaded = loadSettings({ cwd, env: opts.env, skipTrust });
  const env = loaded.env;
  const roots = [cwd, ...(loaded.merged.context?.includeDirectories ?? []).map((d) => resolve(cwd, d))];
  const { servers, blocked } = resolveServerSet(loaded, {
    cwd,
    roots,
    projectTempDir: defaultProjectTempDir(cwd, env),
    env,
    sandbox: sandboxChoice(loaded.merged, { env, processEnv: opts.env ?? process.env }),
  });
  for (const w of loaded.warnings) out.write(`Warning: ${safeText(w)}\n`);
  for (const notice of [untrustedNotice(loaded.trust, loaded.skipped), builtinReplacementNotice(servers)]) {
    if (notice) err.write(`${safeBlock(notice)}\n`);
  }
  if (servers.length === 0 && blocked.length === 0 && loaded.skippedServers.length === 0) {
    out.write('No MCP servers configured.\n');
    return EXIT_OK;
  }
  // Loaded here so add/remove do not pay for the MCP SDK.
  const { McpClientManager } = await import('../mcp/client-manager.js');
  const { ListingCache } = await import('../mcp/listing-cache.js');
  // Live state: every server starts, and what it offers now refreshes the listing cache.
  const manager = new McpClientManager({ servers, roots, listingCache: new ListingCache(listingCacheDir(env)) });
  try {
    await manager.connectAll(opts.settleTimeoutMs ?? 35_000);
    out.write('Configured MCP servers:\n\n');
    for (const s of manager.states()) out.write(describe(s));
    for (const b of blocked) out.write(`- ${safeText(b.name ?? b.alias)} - Blocked: ${safeText(b.reason)}\n`);
    for (const name of loaded.skippedServers)
      out.write(`- ${safeText(name)} (workspace) - Skipped: this folder is not trusted\n`);
  } finally {
    await manager.close();
  }
  return EXIT_OK;
}

/** The name as configured; its tool prefix when that differs; whether it took a built-in's place. */
function label(c: ResolvedServerConfig): string {
  let text = c.name ? `${safeText(c.name)} [tools: ${safeText(c.alias)}__*]` : safeText(c.alias);
  if (c.extension) text += ` (from extension ${safeText(c.extension)})`;
  if (c.replacesBuiltin)
    text +=
      c.replacesBuiltin === 'intended'
        ? ' [replaces the built-in]'
        : ' [replaces the built-in; "replaceBuiltin": true silences the notice]';
  return text;
}

function where(c: ResolvedServerConfig): string {
  if (c.sandboxed) return `${whereUnconfined(c)}, sandboxed`;
  return whereUnconfined(c);
}

function whereUnconfined(c: ResolvedServerConfig): string {
  if (c.builtIn) return 'built-in, stdio';
  if (c.url) return `${c.transport === 'auto' ? 'http/sse' : c.transport}: ${safeText(c.url)}`;
  return `stdio: ${safeText([c.command, ...(c.args ?? [])].join(' '))}`;
}

function describe(s: ServerState): string {
  const head = `${label(s.config)} (${where(s.config)})`;
  const indent = (t: string) =>
    t
      .trimEnd()
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n');
  switch (s.status) {
    case 'connected': {
      const extra = [`${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}`];
      if (s.prompts.length) extra.push(`${s.prompts.length} prompt${s.prompts.length === 1 ? '' : 's'}`);
      if (s.resources.length) extra.push(`${s.resources.length} resource${s.resources.length === 1 ? '' : 's'}`);
      // A replicated remote server names the replica that holds our session.
      const replica = s.replicaId ? ` (replica ${safeText(s.replicaId)})` : '';
      return `✓ ${head} - Connected${replica}, ${extra.join(', ')}\n`;
    }
    case 'connecting':
      return `… ${head} - Still connecting (no answer yet)\n`;
    case 'idle':
      return `○ ${head} - Not started (${s.tools.length} tools from the cache)\n`;
    default:
      return `✗ ${head} - ${s.status === 'failed' ? 'Failed' : 'Disconnected'}: ${s.error ? `\n${indent(safeBlock(s.error))}` : 'unknown reason'}\n`;
  }
}
