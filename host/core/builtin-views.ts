import { hostOnly } from '../tools/builtin-catalogue.js';
import type { Block, CommandOutput } from '../builtin-commands/output.js';
import { BUILTIN_COMMAND_NAMES, builtinsFor, type FrontEnd, findBuiltin } from '../builtin-commands/registry.js';
import { extensionDetails, formatExtensions, formatSkills } from '../extensions/listing.js';
import { hookName } from '../hooks/hook-config.js';
import type { ServerState } from '../mcp/types.js';
import { safeBlock, safeText } from '../safe-text.js';
import { contextFilesInUse } from './context-files.js';
import { firstLine, mcpStatusView } from './mcp-status-view.js';
import type { HostRuntime } from './runtime.js';

/**
 * What the built-in commands show, built once as structured output for every front-end (the chat colours
 * it, headless prints it, an editor receives it as text). Actions (restart a server, save a memory,
 * enable a skill) are not views: the front-end that can do them does.
 */
export interface ViewEnv {
  runtime: Pick<
    HostRuntime,
    'registry' | 'manager' | 'extensions' | 'extensionContext' | 'skills' | 'commands' | 'roots'
  > &
    Partial<Pick<HostRuntime, 'hooks' | 'policies'>>;
  frontEnd: FrontEnd;
  /**
   * The memory server's context; undefined when no memory server is connected. The chat passes the copy
   * it keeps fresh; without one it is read once through the runtime's servers.
   */
  readMemory?(): Promise<string | undefined>;
}

export interface PromptCommand {
  command: string;
  alias: string;
  prompt: ServerState['prompts'][number];
}

/**
 * MCP prompts as slash commands: `/name`, or `/alias__name` when two servers offer the name or a built-in
 * or custom command has it (those are matched first, so the prompt would be out of reach).
 */
export function promptCommands(states: ServerState[], customNames: readonly string[] = []): PromptCommand[] {
  const all = states
    .filter((s) => s.status === 'connected' || s.status === 'idle')
    .flatMap((s) => s.prompts.map((prompt) => ({ alias: s.alias, prompt })));
  const counts = new Map<string, number>();
  for (const { prompt } of all) counts.set(prompt.name, (counts.get(prompt.name) ?? 0) + 1);
  const taken = new Set([...BUILTIN_COMMAND_NAMES, ...customNames]);
  return all.map(({ alias, prompt }) => {
    const plain = prompt.name.toLowerCase();
    const clash = (counts.get(prompt.name) ?? 0) > 1 || taken.has(plain);
    return { command: clash ? `${alias}__${plain}` : plain, alias, prompt };
  });
}

function helpView(env: ViewEnv): CommandOutput {
  const out: Block[] = [{ kind: 'heading', text: 'Commands' }];
  for (const c of builtinsFor(env.frontEnd)) out.push({ kind: 'item', name: `/${c.name}`, detail: c.help });
  const rt = env.runtime;
  const custom = [...rt.commands.commands].sort((a, b) => a.name.localeCompare(b.name));
  if (custom.length) out.push({ kind: 'heading', text: 'Custom commands' });
  for (const c of custom) out.push({ kind: 'item', name: `/${c.name}`, detail: safeText(c.description), tone: 'busy' });
  const prompts = promptCommands(
    rt.manager.states(),
    custom.map((c) => c.name),
  );
  if (prompts.length) out.push({ kind: 'heading', text: 'MCP prompts' });
  for (const pc of prompts)
    out.push({
      kind: 'item',
      name: `/${safeText(pc.command)}`,
      detail: `${safeText(pc.prompt.description ?? '')} (${safeText(pc.alias)})`.trim(),
      tone: 'busy',
    });
  return out;
}

function toolsView(env: ViewEnv, desc: boolean): CommandOutput {
  // What the model may call: a tool kept for the host's own use (write_to_shell) is not among them.
  const tools = env.runtime.registry.list().filter((t) => !hostOnly(t));
  if (!tools.length) return [{ kind: 'hint', text: 'No tools yet (servers may still be connecting: see /mcp).' }];
  const out: Block[] = [{ kind: 'heading', text: `Tools (${tools.length})` }];
  for (const t of tools)
    out.push({
      kind: 'item',
      name: safeText(t.exposedName),
      detail: desc ? safeText(firstLine(t.description)) : undefined,
    });
  if (tools.some((t) => t.exposedName === 'search_tools'))
    out.push({
      kind: 'hint',
      text: '  More tools than fit in one request: each request declares the most relevant, and the model finds the rest with search_tools.',
    });
  return out;
}

/** The memory server's context read once (headless and editors keep no copy of their own). */
async function readMemoryOnce(manager: ViewEnv['runtime']['manager']): Promise<string> {
  const { MemoryContext } = await import('./memory-context.js');
  const mem = new MemoryContext(manager);
  try {
    return await mem.get();
  } finally {
    mem.dispose();
  }
}

/** `/memory show`: the memory server's context, then the enabled extensions' context files. */
async function memoryShow(env: ViewEnv): Promise<CommandOutput> {
  const text = await (env.readMemory ? env.readMemory() : readMemoryOnce(env.runtime.manager));
  const fromExtensions = env.runtime.extensionContext.trim();
  const all = [text?.trim(), fromExtensions].filter(Boolean).join('\n\n');
  if (text === undefined && !fromExtensions) return [{ kind: 'error', text: 'No memory server is connected.' }];
  if (!all) return [{ kind: 'hint', text: 'Memory is empty.' }];
  return [
    { kind: 'heading', text: 'Memory context' },
    { kind: 'text', text: all },
  ];
}

/** `/memory list`: every context file in use, with where it comes from (the memory server's and extensions'). */
async function memoryList(env: ViewEnv): Promise<CommandOutput> {
  const rt = env.runtime;
  await rt.manager.whenReady();
  const files = await contextFilesInUse(rt.manager, rt.extensions);
  if (!files) return [{ kind: 'error', text: 'No memory server is connected.' }];
  if (!files.length)
    return [{ kind: 'hint', text: 'No context files are in use (GEMINI.md in the project or ~/.gemini).' }];
  return [
    { kind: 'heading', text: `Context files in use (${files.length})` },
    ...files.map(
      (f): Block => ({ kind: 'item', name: safeText(f.path), note: f.scope ? `(${safeText(f.scope)})` : undefined }),
    ),
  ];
}

function hooksView(env: ViewEnv): CommandOutput {
  const hooks = env.runtime.hooks?.list() ?? [];
  if (!hooks.length)
    return [
      { kind: 'hint', text: 'No hooks configured (settings.json "hooks"; project hooks run only in trusted folders).' },
    ];
  const out: Block[] = [{ kind: 'heading', text: `Hooks (${hooks.length})` }];
  for (const h of hooks) {
    const event = h.writtenEvent === h.event ? h.event : `${h.writtenEvent} → ${h.event}`;
    const format = h.format === 'claude' ? 'Claude Code' : 'Gemini CLI';
    // Names, matchers and files may come from an extension's hooks.json.
    out.push({
      kind: 'item',
      name: safeText(event),
      note: `${h.matcher ? `[${safeText(h.matcher)}] ` : ''}${safeText(hookName(h))}`,
      detail: `${format} format, ${h.timeoutMs} ms, ${safeText(h.source)}: ${safeText(h.file)}`,
    });
  }
  return out;
}

function policiesView(env: ViewEnv): CommandOutput {
  const loaded = env.runtime.policies;
  const rules = [...(loaded?.rules ?? [])].sort((a, b) => b.priority - a.priority);
  const out: Block[] = rules.length
    ? [{ kind: 'heading', text: `Policy rules (${rules.length}), highest priority first` }]
    : [{ kind: 'hint', text: 'No policy file rules (~/.gemini/policies/*.toml, .gemini/policies/*.toml, --policy).' }];
  for (const r of rules) {
    const what = [
      r.mcpName !== undefined ? `mcpName=${r.mcpName}` : '',
      r.toolNames ? `toolName=${r.toolNames.join('|')}` : '',
      r.commandPrefixes ? `commandPrefix=${r.commandPrefixes.join('|')}` : '',
      r.argsPattern ? `args~/${r.argsPattern.source}/` : '',
      r.modes ? `modes=${r.modes.join(',')}` : '',
      r.interactive !== undefined ? `interactive=${r.interactive}` : '',
    ].filter(Boolean);
    // Rule texts and file names come from policy files (an extension's too).
    out.push({
      kind: 'item',
      name: r.decision.padEnd(8),
      note: `${r.priority.toFixed(3)} ${safeText(what.join(' '))}`,
      detail: safeText(r.origin),
    });
  }
  for (const problem of loaded?.problems ?? [])
    out.push({ kind: 'error', text: `  not loaded: ${safeBlock(problem)}` });
  return out;
}

function extensionsView(env: ViewEnv, desc: boolean): CommandOutput {
  const rt = env.runtime;
  const text = desc
    ? formatExtensions(
        rt.extensions,
        true,
        extensionDetails(rt.extensions, { cwd: rt.roots[0] ?? process.cwd(), env: process.env }),
      )
    : formatExtensions(rt.extensions);
  return [{ kind: 'text', text: text.trimEnd() }];
}

/**
 * The view of `/name args`, or undefined when that is not a view: an unknown name, or an action the
 * front-end runs itself (`/mcp restart`, `/memory add`, `/skills enable`).
 */
export async function builtinView(
  name: string,
  args: readonly string[],
  env: ViewEnv,
): Promise<CommandOutput | undefined> {
  const sub = args[0];
  switch (findBuiltin(name)?.name) {
    case 'help':
      return helpView(env);
    case 'tools':
      return toolsView(env, sub === 'desc');
    case 'mcp':
      if (sub !== undefined && sub !== 'list' && sub !== 'desc' && sub !== 'descriptions') return undefined;
      return mcpStatusView(env.runtime.manager.states(), sub === 'desc' || sub === 'descriptions', (a) =>
        env.runtime.registry.isServerEnabled(a),
      );
    case 'memory':
      if (sub === undefined || sub === 'show') return memoryShow(env);
      return sub === 'list' ? memoryList(env) : undefined;
    case 'hooks':
      return hooksView(env);
    case 'policies':
      return policiesView(env);
    case 'extensions':
      return extensionsView(env, sub === 'desc');
    case 'skills':
      return sub === undefined || sub === 'list'
        ? [{ kind: 'text', text: formatSkills(env.runtime.skills).trimEnd() }]
        : undefined;
    default:
      return undefined;
  }
}
