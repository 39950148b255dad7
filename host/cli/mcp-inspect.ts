import { FatalInputError } from '../errors.js';
import { resolve } from 'node:path';
import { defaultProjectTempDir } from '../config/settings.js';
import { loadSettings } from '../load-settings.js';
import { resolveServerSet } from '../config/servers.js';
import type { McpClientManager } from '../mcp/client-manager.js';
import { safeBlock, safeText } from '../safe-text.js';
import { EXIT_ERROR, EXIT_OK, type McpCommandOptions } from './mcp-shared.js';
import { sandboxChoice } from '../config/sandbox.js';

/**
 * `mcp resources [SERVER]`, `mcp read SERVER URI` and `mcp prompts [SERVER]`: what servers offer beyond
 * tools, for a person at the shell. Only the named server starts when one is named.
 */
async function withManager<T>(
  only: string | undefined,
  opts: McpCommandOptions,
  run: (m: McpClientManager) => Promise<T>,
): Promise<T> {
  const cwd = resolve(opts.cwd);
  const loaded = loadSettings({ cwd, env: opts.env });
  const env = loaded.env;
  const roots = [cwd, ...(loaded.merged.context?.includeDirectories ?? []).map((d) => resolve(cwd, d))];
  // The same servers `mcp list` shows: confined ones started confined (the sandbox settings apply here too).
  let { servers } = resolveServerSet(loaded, {
    cwd,
    roots,
    projectTempDir: defaultProjectTempDir(cwd, env),
    env,
    sandbox: sandboxChoice(loaded.merged, { env }),
  });
  if (only !== undefined) {
    servers = servers.filter((s) => s.alias === only || s.name === only);
    if (!servers.length) throw new FatalInputError(`No MCP server "${only}" is configured.`);
  }
  const { McpClientManager } = await import('../mcp/client-manager.js');
  const manager = new McpClientManager({ servers, roots });
  try {
    await manager.connectAll(opts.settleTimeoutMs ?? 35_000);
    return await run(manager);
  } finally {
    await manager.close();
  }
}

export async function listResources(
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
): Promise<number> {
  if (argv.length > 1) throw new FatalInputError('mcp resources takes at most one <server>.');
  return withManager(argv[0], opts, async (m) => {
    let any = false;
    for (const s of m.states().filter((x) => x.status === 'connected')) {
      const [resources, templates] = await Promise.all([
        m.listResources(s.alias).catch(() => []),
        m.listResourceTemplates(s.alias).catch(() => []),
      ]);
      if (!resources.length && !templates.length) continue;
      any = true;
      out.write(`${safeText(s.alias)}:\n`);
      for (const r of resources)
        out.write(safeText(`  ${r.uri}${r.name ? `  ${r.name}` : ''}${r.mimeType ? `  [${r.mimeType}]` : ''}`) + '\n');
      for (const t of templates)
        out.write(`${safeText(`  ${t.uriTemplate}  (template${t.name ? `: ${t.name}` : ''})`)}\n`);
    }
    if (!any) out.write('No MCP server offers resources.\n');
    return EXIT_OK;
  });
}

export async function readResource(
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<number> {
  const [server, uri, ...extra] = argv;
  if (!server || !uri || extra.length) throw new FatalInputError('mcp read needs <server> and <uri>.');
  return withManager(server, opts, async (m) => {
    const state = m.states()[0]!;
    if (state.status !== 'connected') {
      err.write(`MCP server "${safeText(server)}" is not connected: ${safeBlock(state.error ?? state.status)}\n`);
      return EXIT_ERROR;
    }
    const res = await m.readResource(state.alias, uri);
    for (const c of res.contents) {
      if ('text' in c && typeof c.text === 'string') {
        // The resource is the command's output: raw into a pipe, made safe on a terminal.
        const text = (out as { isTTY?: boolean }).isTTY ? safeBlock(c.text) : c.text;
        out.write(text.endsWith('\n') ? text : `${text}\n`);
      } else if ('blob' in c && typeof c.blob === 'string') out.write(Buffer.from(c.blob, 'base64'));
    }
    return EXIT_OK;
  });
}

export async function listPrompts(
  argv: string[],
  opts: McpCommandOptions,
  out: NodeJS.WritableStream,
): Promise<number> {
  if (argv.length > 1) throw new FatalInputError('mcp prompts takes at most one <server>.');
  return withManager(argv[0], opts, async (m) => {
    const withPrompts = m.states().filter((s) => s.status === 'connected' && s.prompts.length);
    if (!withPrompts.length) out.write('No MCP server offers prompts.\n');
    for (const s of withPrompts) {
      out.write(`${safeText(s.alias)}:\n`);
      for (const p of s.prompts) {
        const args = (p.arguments ?? []).map((a) => (a.required ? `${a.name}=…` : `[${a.name}=…]`)).join(' ');
        out.write(
          `${safeText(`  /${p.name}${args ? ` ${args}` : ''}${p.description ? `  — ${p.description}` : ''}`)}\n`,
        );
      }
    }
    return EXIT_OK;
  });
}
