import { contextFilesInUse } from '../../core/context-files.js';
import { toggleSkill } from '../../skills/skill-toggle.js';
import type { ServerState } from '../../mcp/types.js';
import type { UiRuntime } from '../backend-types.js';
import type { Palette } from '../text/palette.js';
import { promptArgs, type SlashInput } from './slash-parse.js';
import { CHAT_COMMANDS } from './chat-commands.js';
import { formatHooks, formatPolicies } from './config-commands.js';
import { toolFor } from '../../tools/builtin-catalogue.js';
import { exposedName } from '../../tools/naming.js';
import { extensionDetails, formatExtensions, formatSkills } from '../../extensions/listing.js';
import { safeBlock, safeText } from '../../safe-text.js';

export interface SlashContext {
  runtime?: UiRuntime;
  palette: Palette;
  print(text: string): void;
  error(text: string): void;
  clear(): Promise<void>;
  exit(): void;
  /** Sends text to the model as a user message (MCP prompts end here). */
  submitPrompt(text: string, display: string): void;
  /** Runs a passive tool call (its card shows the result; nothing goes to the model). */
  runTool(name: string, args: Record<string, unknown>): Promise<void>;
  /** Re-reads the memory context (the memory server's resource). */
  readMemory(uri?: string): Promise<string | undefined>;
}

/** Built-in commands and their sub-commands (also the Tab completion table). */
export const BUILTIN_COMMANDS: Record<string, { help: string; subs: string[] }> = {
  help: { help: 'show commands and keys', subs: [] },
  mcp: {
    help: 'MCP servers: status, tools, failures; /mcp restart|reload [NAME]; enable|disable NAME (this session); desc',
    subs: ['list', 'desc', 'restart', 'reload', 'enable', 'disable'],
  },
  tools: { help: 'list the tools the model can call', subs: ['desc'] },
  memory: {
    help: 'memory: show | list (context files) | refresh | add TEXT',
    subs: ['show', 'list', 'refresh', 'add'],
  },
  hooks: { help: 'list the hooks in force and where they come from', subs: [] },
  policies: { help: 'list the policy file rules in force', subs: [] },
  extensions: { help: 'installed extensions and whether each is enabled here', subs: [] },
  skills: {
    help: 'agent skills: list | enable NAME | disable NAME | reload',
    subs: ['list', 'enable', 'disable', 'reload'],
  },
  ...Object.fromEntries(Object.entries(CHAT_COMMANDS).map(([name, c]) => [name, { help: c.help, subs: c.subs }])),
  clear: { help: 'clear the screen and start a new conversation view', subs: [] },
  quit: { help: 'exit', subs: [] },
  exit: { help: 'exit', subs: [] },
};

export interface PromptCommand {
  command: string;
  alias: string;
  prompt: ServerState['prompts'][number];
}

/** MCP prompts as slash commands: `/name`, or `/alias__name` when two servers offer the same name. */
export function promptCommands(states: ServerState[]): PromptCommand[] {
  const all = states
    .filter((s) => s.status === 'connected' || s.status === 'idle')
    .flatMap((s) => s.prompts.map((prompt) => ({ alias: s.alias, prompt })));
  const counts = new Map<string, number>();
  for (const { prompt } of all) counts.set(prompt.name, (counts.get(prompt.name) ?? 0) + 1);
  return all.map(({ alias, prompt }) => {
    const plain = prompt.name.toLowerCase();
    const clash = (counts.get(prompt.name) ?? 0) > 1 || plain in BUILTIN_COMMANDS;
    return { command: clash ? `${alias}__${plain}` : plain, alias, prompt };
  });
}

/** Completion table: built-ins with sub-commands, plus MCP prompt commands. */
export function completionTable(runtime: UiRuntime | undefined): Record<string, string[]> {
  const table: Record<string, string[]> = {};
  for (const [name, c] of Object.entries(BUILTIN_COMMANDS)) table[name] = c.subs;
  if (runtime) {
    for (const p of promptCommands(runtime.manager.states())) table[p.command] = [];
    for (const c of runtime.commands.commands) table[c.name] = [];
    const restart = table.mcp;
    table.mcp = [...restart, ...runtime.manager.states().map((s) => `restart ${s.alias}`)].filter(
      (v, i, a) => a.indexOf(v) === i,
    );
  }
  return table;
}

export function formatMcp(
  states: ServerState[],
  p: Palette,
  withDescriptions: boolean,
  isEnabled: (alias: string) => boolean = () => true,
): string {
  if (states.length === 0) return p.gray('No MCP servers configured.');
  const lines = [p.bold('MCP servers')];
  for (const s of states) {
    if (!isEnabled(s.alias)) {
      // Turned off for this session: its tools are not offered, whatever its connection does.
      lines.push(
        `${p.gray('○')} ${p.bold(safeText(s.alias))} ${p.gray(`disabled for this session (/mcp enable ${safeText(s.alias)})`)}`,
      );
      continue;
    }
    const colour =
      s.status === 'connected' ? p.green : s.status === 'failed' || s.status === 'disconnected' ? p.red : p.yellow;
    const icon = s.status === 'connected' ? '●' : s.status === 'connecting' ? '◌' : s.status === 'idle' ? '○' : '✗';
    const where = s.config?.url ?? '';
    const kind = s.config?.builtIn ? p.gray(' (built-in)') : where ? p.gray(` ${where}`) : '';
    const listed = s.status === 'connected' || s.status === 'idle';
    const counts = listed
      ? p.gray(
          ` — ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'}${s.prompts.length ? `, ${s.prompts.length} prompt${s.prompts.length === 1 ? '' : 's'}` : ''}`,
        )
      : '';
    const lazy = s.status === 'idle' ? p.gray(' (not started: tools from the cache; starts on first use)') : '';
    lines.push(`${colour(icon)} ${p.bold(safeText(s.alias))}${kind} ${colour(s.status)}${counts}${lazy}`);
    // A server's error and stderr are its own words: made safe before our colours.
    const error = s.error ? safeBlock(s.error) : undefined;
    if (error) lines.push(...error.split('\n').map((l) => `    ${p.red(l)}`));
    // The failure reason usually quotes the server's stderr already: show only lines it does not have.
    const tail =
      s.status === 'failed'
        ? safeBlock(s.stderrTail ?? '')
            .trim()
            .split('\n')
            .slice(-5)
        : [];
    for (const l of tail) if (l.trim() && !error?.includes(l.trim())) lines.push(`    ${p.gray(l)}`);
    for (const t of s.tools) {
      const desc = withDescriptions && t.description ? p.gray(` — ${safeText(firstLine(t.description))}`) : '';
      lines.push(`    ${p.cyan(safeText(t.name))}${desc}`);
    }
    for (const pr of s.prompts)
      lines.push(
        `    ${p.magenta(`/${safeText(pr.name)}`)}${pr.description ? p.gray(` — ${safeText(firstLine(pr.description))}`) : ''}`,
      );
  }
  return lines.join('\n');
}

function firstLine(s: string): string {
  const l = s.trim().split('\n')[0];
  return l.length > 100 ? `${l.slice(0, 99)}…` : l;
}

export function helpText(runtime: UiRuntime | undefined, p: Palette): string {
  const lines = [p.bold('Commands')];
  for (const [name, c] of Object.entries(BUILTIN_COMMANDS))
    if (name !== 'exit') lines.push(`  ${p.cyan('/' + name)}  ${c.help}`);
  const custom = runtime ? [...runtime.commands.commands].sort((a, b) => a.name.localeCompare(b.name)) : [];
  if (custom.length) {
    lines.push(p.bold('Custom commands'));
    for (const c of custom) lines.push(`  ${p.magenta('/' + c.name)}  ${c.description}`);
  }
  const prompts = runtime ? promptCommands(runtime.manager.states()) : [];
  if (prompts.length) {
    lines.push(p.bold('MCP prompts'));
    for (const pc of prompts)
      lines.push(
        `  ${p.magenta(`/${safeText(pc.command)}`)}  ${safeText(pc.prompt.description ?? '')} ${p.gray(`(${safeText(pc.alias)})`)}`,
      );
  }
  lines.push(
    p.bold('Input'),
    `  ${p.cyan('@path')} include a file · ${p.cyan('@server__tool({"arg": 1})')} run a tool yourself (result not sent to the model)`,
    `  ${p.cyan('Enter')} send · ${p.cyan('Alt+Enter')}, ${p.cyan('Ctrl+J')} or ${p.cyan('\\ Enter')} new line · ${p.cyan('Up/Down')} history · ${p.cyan('Tab')} complete`,
    `  ${p.cyan('Shift+Tab')} approval mode · ${p.cyan('Esc')} cancel · ${p.cyan('Ctrl+T')} thoughts · ${p.cyan('Ctrl+O')} expand/collapse tool output · ${p.cyan('F12')} debug log · ${p.cyan('PgUp/PgDn')} scroll · ${p.cyan('Ctrl+C')} twice to exit`,
  );
  return lines.join('\n');
}

/** `/mcp [desc]`, `/mcp restart|refresh [NAME]`. */
async function runMcpSlash(args: string[], ctx: SlashContext, rt: NonNullable<SlashContext['runtime']>): Promise<void> {
  const p = ctx.palette;
  const [sub, name] = args;
  if (sub === 'enable' || sub === 'disable') return mcpEnable(sub === 'enable', name, ctx, rt);
  if (sub === 'restart' || sub === 'refresh' || sub === 'reload') {
    const targets = name ? [name] : rt.manager.states().map((s) => s.alias);
    for (const alias of targets) {
      if (!rt.manager.states().some((s) => s.alias === alias)) {
        ctx.error(`No MCP server named "${alias}".`);
        continue;
      }
      ctx.print(p.gray(`Restarting ${alias}…`));
      try {
        await rt.manager.restart(alias);
        const st = rt.manager.states().find((s) => s.alias === alias);
        ctx.print(
          `${safeText(alias)}: ${st?.status === 'connected' ? p.green('connected') : p.red(st?.status ?? 'unknown')}${st?.error ? ` ${p.red(safeBlock(st.error))}` : ''}`,
        );
      } catch (err) {
        ctx.error(`Restart of ${alias} failed: ${(err as Error).message}`);
      }
    }
    return;
  }
  ctx.print(
    formatMcp(rt.manager.states(), p, sub === 'desc' || sub === 'descriptions', (a) => rt.registry.isServerEnabled(a)),
  );
}

/** `/tools [desc]`: the tools the model can call. */
function formatTools(rt: UiRuntime, p: Palette, desc: boolean): string {
  const tools = rt.registry.list();
  if (!tools.length) return p.gray('No tools yet (servers may still be connecting: see /mcp).');
  return [
    p.bold(`Tools (${tools.length})`),
    ...tools.map(
      (t) => `  ${p.cyan(safeText(t.exposedName))}${desc ? p.gray(` — ${safeText(firstLine(t.description))}`) : ''}`,
    ),
    ...(tools.some((t) => t.exposedName === 'search_tools')
      ? [
          p.gray(
            '  More tools than fit in one request: each request declares the most relevant, and the model finds the rest with search_tools.',
          ),
        ]
      : []),
  ].join('\n');
}

/**
 * `/memory add`: a passive call of the tool that plays save_memory's part (the built-in's name while the
 * registry is not there yet; the call then says what is missing).
 */
async function rememberFact(ctx: SlashContext, fact: string): Promise<void> {
  const tool = toolFor(ctx.runtime?.registry.list() ?? [], 'save_memory');
  await ctx.runTool(tool?.exposedName ?? exposedName('memory', 'save_memory'), { fact });
}

/**
 * `/skills enable NAME [--scope user]`, `/skills disable NAME`, `/skills reload`: Gemini CLI's sub-commands,
 * the same files and words as `gemini-mcp skills`; enable and disable reload the skills, so the next
 * request already has the change.
 */
function skillsCommand(input: SlashInput, ctx: SlashContext, rt: NonNullable<SlashContext['runtime']>): void {
  const [sub, name, ...rest] = input.args;
  const cwd = rt.roots[0] ?? process.cwd();
  if (sub === 'reload') {
    const skills = rt.reloadSkills();
    ctx.print(`Skills reloaded: ${skills.length} available to the model.`);
    return;
  }
  if ((sub === 'enable' || sub === 'disable') && name) {
    const scope = rest.join(' ').match(/--scope[= ](user|workspace)/)?.[1] === 'user' ? 'user' : 'workspace';
    ctx.print(safeBlock(toggleSkill(sub, name, scope, { cwd, env: process.env })));
    const skills = rt.reloadSkills();
    ctx.print(`${skills.length} skill${skills.length === 1 ? '' : 's'} now available to the model.`);
    return;
  }
  ctx.error('Usage: /skills [list] | enable NAME | disable NAME [--scope user|workspace] | reload');
}

/** `/extensions [desc]` and `/skills`. */
function showContributions(input: SlashInput, ctx: SlashContext): true {
  const rt = ctx.runtime;
  if (!rt) return ctx.error('The host runtime is still starting.'), true;
  if (input.name === 'skills' && input.args[0] && input.args[0] !== 'list') return skillsCommand(input, ctx, rt), true;
  const text =
    input.name === 'skills'
      ? formatSkills(rt.skills)
      : input.args[0] === 'desc'
        ? formatExtensions(
            rt.extensions,
            true,
            extensionDetails(rt.extensions, { cwd: rt.roots[0] ?? process.cwd(), env: process.env }),
          )
        : formatExtensions(rt.extensions);
  ctx.print(text.trimEnd());
  return true;
}

/**
 * `/memory list`: the context files in use (Gemini CLI's sub-command): the memory server's and the enabled
 * extensions', each with where it comes from.
 */
async function memoryList(ctx: SlashContext): Promise<void> {
  const p = ctx.palette;
  const rt = ctx.runtime;
  const files = rt && (await contextFilesInUse(rt.manager, rt.extensions));
  if (!files) {
    ctx.error('No memory server is connected.');
    return;
  }
  ctx.print(
    files.length
      ? [
          p.bold(`Context files in use (${files.length})`),
          ...files.map((f) => `  ${safeText(f.path)}${f.scope ? p.gray(` (${safeText(f.scope)})`) : ''}`),
        ].join('\n')
      : p.gray('No context files are in use (GEMINI.md in the project or ~/.gemini).'),
  );
}

/** `/mcp enable|disable NAME`: for this session only (Gemini CLI's sub-commands); the settings stay as they are. */
function mcpEnable(
  enable: boolean,
  name: string | undefined,
  ctx: SlashContext,
  rt: NonNullable<SlashContext['runtime']>,
) {
  const p = ctx.palette;
  if (!name) return ctx.error(`Usage: /mcp ${enable ? 'enable' : 'disable'} NAME`);
  if (!rt.manager.states().some((s) => s.alias === name)) return ctx.error(`No MCP server named "${name}".`);
  rt.registry.setServerEnabled(name, enable);
  const count = rt.registry.list().filter((t) => t.serverAlias === name).length;
  ctx.print(
    enable
      ? `MCP server ${p.cyan(name)} enabled for this session: ${count} tool${count === 1 ? '' : 's'} back.`
      : `MCP server ${p.cyan(name)} disabled for this session: its tools are not offered. /mcp enable ${name} brings them back.`,
  );
}

/** Runs a slash command; false when the name is unknown. */
export async function runSlash(input: SlashInput, ctx: SlashContext): Promise<boolean> {
  const p = ctx.palette;
  const rt = ctx.runtime;
  switch (input.name) {
    case 'help':
    case '?':
      ctx.print(helpText(rt, p));
      return true;
    case 'quit':
    case 'exit':
      ctx.exit();
      return true;
    case 'clear':
      await ctx.clear();
      return true;
    case 'extensions':
    case 'skills':
      return showContributions(input, ctx);
    case 'mcp':
      if (!rt) return ctx.error('The host runtime is still starting.'), true;
      await runMcpSlash(input.args, ctx, rt);
      return true;
    case 'hooks':
    case 'policies':
      if (!rt) return ctx.error('The host runtime is still starting.'), true;
      ctx.print(input.name === 'hooks' ? formatHooks(rt, p) : formatPolicies(rt, p));
      return true;
    case 'tools':
      if (!rt) return ctx.error('The host runtime is still starting.'), true;
      ctx.print(formatTools(rt, p, input.args[0] === 'desc'));
      return true;
    case 'memory': {
      const sub = input.args[0] ?? 'show';
      if (sub === 'add') {
        const fact = input.rest.replace(/^add\s*/, '').trim();
        if (!fact) return ctx.error('Usage: /memory add <text to remember>'), true;
        await rememberFact(ctx, fact);
        return true;
      }
      if (sub === 'show' || sub === 'refresh') {
        const text = await ctx.readMemory();
        // Extensions' context files are context too: shown after the memory server's.
        const fromExtensions = rt?.extensionContext.trim() ?? '';
        const all = [text?.trim(), fromExtensions].filter(Boolean).join('\n\n');
        if (text === undefined && !fromExtensions) ctx.error('No memory server is connected.');
        else if (sub === 'refresh') ctx.print(`Memory refreshed: ${all.length} characters of context.`);
        else ctx.print(all ? `${p.bold('Memory context')}\n${all}` : p.gray('Memory is empty.'));
        return true;
      }
      if (sub === 'list') {
        await memoryList(ctx);
        return true;
      }
      ctx.error('Usage: /memory show | list | refresh | add <text>');
      return true;
    }
    default: {
      if (!rt) return false;
      const pc = promptCommands(rt.manager.states()).find((c) => c.command === input.name);
      if (!pc) return false;
      const args = promptArgs(input.rest, pc.prompt.arguments ?? []);
      const missing = (pc.prompt.arguments ?? []).filter((a) => a.required && !(a.name in args)).map((a) => a.name);
      if (missing.length)
        return ctx.error(`/${pc.command} needs: ${missing.join(', ')} (e.g. --${missing[0]}=value)`), true;
      try {
        const res = await rt.manager.getPrompt(pc.alias, pc.prompt.name, args);
        const text = res.messages
          .map((m) => contentText(m.content))
          .filter(Boolean)
          .join('\n\n');
        ctx.submitPrompt(text, `/${pc.command}${input.rest ? ' ' + input.rest : ''}`);
      } catch (err) {
        ctx.error(`Prompt ${pc.prompt.name} failed: ${(err as Error).message}`);
      }
      return true;
    }
  }
}

function contentText(c: unknown): string {
  if (Array.isArray(c)) return c.map(contentText).join('\n');
  const o = c as { type?: string; text?: string; resource?: { text?: string; uri?: string } };
  if (o?.type === 'text') return o.text ?? '';
  if (o?.type === 'resource') return o.resource?.text ?? o.resource?.uri ?? '';
  return '';
}
